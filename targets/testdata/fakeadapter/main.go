// Command fakeadapter is a stand-in adapter for the Process driver's tests.
// It listens on the address in $TOOLCERT_LISTEN (or the variable -listen-var
// names), answers GET /healthz with 200, GET /env with its environment (one
// NAME=value per line) and GET /exit by exiting with status 4.
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	flags := flag.NewFlagSet("fakeadapter", flag.ContinueOnError)
	listenVar := flags.String("listen-var", "TOOLCERT_LISTEN", "variable holding the listen address")
	crash := flags.Bool("crash", false, "print a message and exit 3 at start")
	neverReady := flags.Bool("never-ready", false, "answer /healthz with 503")
	ignoreTerm := flags.Bool("ignore-term", false, "ignore SIGTERM")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	if *crash {
		fmt.Fprintln(os.Stderr, "fakeadapter: crashing on purpose")
		return 3
	}
	if *ignoreTerm {
		signal.Ignore(syscall.SIGTERM)
	}
	fmt.Println("fakeadapter: starting")
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		if *neverReady {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /env", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, strings.Join(os.Environ(), "\n"))
	})
	mux.HandleFunc("GET /exit", func(http.ResponseWriter, *http.Request) {
		fmt.Fprintln(os.Stderr, "fakeadapter: exiting on request")
		os.Exit(4)
	})
	srv := &http.Server{Addr: os.Getenv(*listenVar), Handler: mux, ReadHeaderTimeout: time.Second}
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, "fakeadapter:", err)
		return 1
	}
	return 0
}
