// Command fakeadapter is a stand-in adapter for the Process driver's tests.
// It listens on the address in $TOOLCERT_LISTEN (or the variable -listen-var
// names), answers GET /healthz with 200, GET /env with its environment (one
// NAME=value per line) and GET /exit by exiting with status 4.
//
// Hostile flags: -bind HOST listens on HOST (0.0.0.0, ::) at the port of
// the listen address instead; -wrong-port listens on another port of its
// host; -spawn MODE starts a process that tries to outlive the adapter
// (see package hostile), listening on -spawn-listen when set, and GET
// /spawned answers its pid; -noise N prints N lines after it starts;
// -panic panics once it has started (and printed its noise); -ready-after
// D answers /healthz with 503 until D has passed; GET /sicken makes
// /healthz answer 503 from then on, while the process runs on.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/toolcert/toolcert/targets/testdata/hostile"
)

func main() {
	hostile.Play(os.Args[1:])
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	flags := flag.NewFlagSet("fakeadapter", flag.ContinueOnError)
	listenVar := flags.String("listen-var", "TOOLCERT_LISTEN", "variable holding the listen address")
	crash := flags.Bool("crash", false, "print a message and exit 3 at start")
	neverReady := flags.Bool("never-ready", false, "answer /healthz with 503")
	ignoreTerm := flags.Bool("ignore-term", false, "ignore SIGTERM")
	bind := flags.String("bind", "", "listen on this host at the listen address's port")
	spawn := flags.String("spawn", "", "start a process that tries to outlive the adapter: group, setsid or double-fork")
	spawnListen := flags.String("spawn-listen", "", "the spawned process listens on this address")
	wrongPort := flags.Bool("wrong-port", false, "listen on another port of the listen address's host")
	noise := flags.Int("noise", 0, "print this many lines after starting")
	panics := flags.Bool("panic", false, "panic once started")
	readyAfter := flags.Duration("ready-after", 0, "answer /healthz with 503 until this has passed")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	addr := os.Getenv(*listenVar)
	if *bind != "" {
		_, port, _ := net.SplitHostPort(addr)
		addr = net.JoinHostPort(*bind, port)
	}
	if *wrongPort {
		host, _, _ := net.SplitHostPort(addr)
		addr = net.JoinHostPort(host, "0")
	}
	spawned := 0
	if *spawn != "" {
		pid, err := hostile.Spawn(*spawn, *spawnListen)
		if err != nil {
			fmt.Fprintln(os.Stderr, "fakeadapter: spawn:", err)
			return 5
		}
		spawned = pid
	}
	if *crash {
		fmt.Fprintln(os.Stderr, "fakeadapter: crashing on purpose")
		return 3
	}
	if *ignoreTerm {
		signal.Ignore(syscall.SIGTERM)
	}
	started := time.Now()
	fmt.Println("fakeadapter: starting")
	for i := range *noise {
		fmt.Printf("fakeadapter: noise line %d\n", i+1)
	}
	if *panics {
		explode()
	}
	var sick atomic.Bool
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		if *neverReady || sick.Load() || time.Since(started) < *readyAfter {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /sicken", func(http.ResponseWriter, *http.Request) {
		sick.Store(true)
	})
	mux.HandleFunc("GET /env", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, strings.Join(os.Environ(), "\n"))
	})
	mux.HandleFunc("GET /spawned", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, spawned)
	})
	mux.HandleFunc("GET /exit", func(http.ResponseWriter, *http.Request) {
		fmt.Fprintln(os.Stderr, "fakeadapter: exiting on request")
		os.Exit(4)
	})
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: time.Second}
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, "fakeadapter:", err)
		return 1
	}
	return 0
}

// explode panics, in a frame of its own.
func explode() {
	panic("fakeadapter: boom")
}
