// Command toolcert-mutant serves a mutant adapter: the reference adapter
// with exactly one protection removed. It is configured from the TOOLCERT_*
// environment of docs/protocol.md exactly like `toolcert adapter`.
//
// Usage:
//
//	toolcert-mutant --mutant NAME   (or TOOLCERT_MUTANT=NAME)
//	toolcert-mutant --list
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolcert/toolcert/adapters/mutant"
	"github.com/toolcert/toolcert/adapters/reference"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// run serves the chosen mutant until ctx is done and returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("toolcert-mutant", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("mutant", os.Getenv("TOOLCERT_MUTANT"), "`NAME` of the mutant to serve (default $TOOLCERT_MUTANT)")
	list := fs.Bool("list", false, "print the mutants and the protection each removes, then exit")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: toolcert-mutant --mutant NAME | --list\n\n"+
			"Serves a mutant adapter configured from the TOOLCERT_* environment, like toolcert adapter.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "toolcert-mutant: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	case *list:
		for _, n := range mutant.Names() {
			fmt.Fprintf(stdout, "%-30s %s\n", n, mutant.Describe(n))
		}
		return exitOK
	case *name == "":
		fmt.Fprintln(stderr, "toolcert-mutant: --mutant NAME or TOOLCERT_MUTANT is required (see --list)")
		return exitUsage
	}
	return serve(ctx, *name, stderr)
}

// serve builds the mutant from the environment and serves it.
func serve(ctx context.Context, name string, stderr io.Writer) int {
	cfg, err := reference.ConfigFromEnv(os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "toolcert-mutant: %v\n", err)
		return exitUsage
	}
	a, err := mutant.New(name, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "toolcert-mutant: %v\n", err)
		if errors.Is(err, mutant.ErrUnknown) || errors.Is(err, reference.ErrNoUpstream) {
			return exitUsage
		}
		return exitFail
	}
	defer a.Close()
	if err := a.ListenAndServe(ctx); err != nil {
		fmt.Fprintf(stderr, "toolcert-mutant: %v\n", err)
		return exitFail
	}
	return exitOK
}
