// Command adapter is a connector owner's adapter for one tool,
// ticket_status, built from the gate library and speaking toolcert's target
// protocol (docs/protocol.md). It is the worked example of
// docs/certify-a-new-tool.md: copy it, rename the tool, pin your vendor's
// schema, and certify it with toolcert.
//
// It reads its wiring from the environment variables the protocol package
// names: the upstream's base URL (required), the listen address (default
// 127.0.0.1:8080), the audit log (default: standard error) and the limits,
// whose defaults are the protocol's.
//
// The flag --forward-body breaks it on purpose: the vendor's free-text body
// is forwarded into the agent's data, which toolcert must catch.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// version names this adapter in every audit event.
const version = "ticket-example/0.1.0"

// config is everything the adapter reads from its flags and environment.
type config struct {
	upstreamURL string
	listen      string
	auditFile   string
	limits      gate.Limits
	maxAttempts int
	deadline    time.Duration
	readTimeout time.Duration
	freshness   time.Duration
	futureSkew  time.Duration
	forwardBody bool
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stderr)
	stop()
	os.Exit(code)
}

// run parses the configuration, serves until ctx is done and returns the
// exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) int {
	cfg, err := loadConfig(args, getenv, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "adapter:", err)
		return 2
	}
	if err := serve(ctx, cfg, stderr); err != nil {
		fmt.Fprintln(stderr, "adapter:", err)
		return 1
	}
	return 0
}

// loadConfig reads the flags and the TOOLCERT_* environment; the defaults
// are those of docs/protocol.md, in this one place.
func loadConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("adapter", flag.ContinueOnError)
	fs.SetOutput(stderr)
	forward := fs.Bool("forward-body", false, "BROKEN ON PURPOSE: forward the vendor's free-text body to the agent")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	cfg := config{
		upstreamURL: getenv(protocol.VarUpstreamURL),
		listen:      getenv(protocol.VarListen),
		auditFile:   getenv(protocol.VarAuditFile),
		forwardBody: *forward,
	}
	if cfg.upstreamURL == "" {
		return cfg, fmt.Errorf("%s is not set", protocol.VarUpstreamURL)
	}
	if cfg.listen == "" {
		cfg.listen = "127.0.0.1:8080"
	}
	env := envReader{getenv: getenv}
	cfg.limits.MaxBytes = int64(env.int(protocol.VarMaxBytes, protocol.DefaultMaxBytes))
	cfg.limits.MaxDepth = env.int(protocol.VarMaxDepth, protocol.DefaultMaxDepth)
	cfg.maxAttempts = env.int(protocol.VarMaxAttempts, protocol.DefaultMaxAttempts)
	cfg.deadline = env.duration(protocol.VarDeadline, protocol.DefaultDeadline)
	cfg.readTimeout = env.duration(protocol.VarReadTimeout, protocol.DefaultReadTimeout)
	cfg.freshness = env.duration(protocol.VarFreshness, protocol.DefaultFreshness)
	cfg.futureSkew = env.duration(protocol.VarFutureSkew, protocol.DefaultFutureSkew)
	return cfg, env.err
}

// envReader reads numbers and durations from the environment and keeps the
// first error, so that loadConfig reads as a list.
type envReader struct {
	getenv func(string) string
	err    error
}

// int returns the positive integer in name, or def when name is unset.
func (e *envReader) int(name string, def int) int {
	s := e.getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err == nil && n <= 0 {
		err = fmt.Errorf("not positive")
	}
	if err != nil && e.err == nil {
		e.err = fmt.Errorf("%s=%q: %w", name, s, err)
	}
	return n
}

// duration returns the Go duration in name, or def when name is unset.
func (e *envReader) duration(name string, def time.Duration) time.Duration {
	s := e.getenv(name)
	if s == "" {
		return def
	}
	d, err := time.ParseDuration(s)
	if err == nil && d < 0 {
		err = fmt.Errorf("negative")
	}
	if err != nil && e.err == nil {
		e.err = fmt.Errorf("%s=%q: %w", name, s, err)
	}
	return d
}
