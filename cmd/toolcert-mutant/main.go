// Command toolcert-mutant serves a mutant adapter: the reference adapter
// with exactly one protection removed. It is configured from the TOOLCERT_*
// environment of docs/protocol.md exactly like `toolcert adapter`.
//
// Usage:
//
//	toolcert-mutant --mutant NAME [--mcp stdio|http]   (or TOOLCERT_MUTANT=NAME)
//	toolcert-mutant --list
//
// With --mcp the mutant is served as an MCP server, as `toolcert adapter
// --mcp` serves the reference (docs/protocol.md, "The reference adapter
// over MCP").
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolcert/toolcert/adapters/mcpbridge"
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
	var mode mcpbridge.Mode
	fs.Var(&mode, "mcp", "serve over MCP, `mode` stdio or http (default: protocol v1 HTTP)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: toolcert-mutant --mutant NAME [--mcp stdio|http] | --list\n\n"+
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
	return serve(ctx, *name, mode, stdout, stderr)
}

// serve builds the mutant from the environment and serves it over protocol
// v1 HTTP, or over MCP in mode when mode is set.
func serve(ctx context.Context, name string, mode mcpbridge.Mode, stdout, stderr io.Writer) int {
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
	if mode != "" {
		err = serveMCP(ctx, a, name, mode, stdout, stderr)
	} else {
		err = a.ListenAndServe(ctx)
	}
	if err != nil {
		fmt.Fprintf(stderr, "toolcert-mutant: %v\n", err)
		return exitFail
	}
	return exitOK
}

// serveMCP serves mutant a over MCP in mode until ctx is done. It writes
// only to stderr: over stdio, standard output is the JSON-RPC stream, but
// for the banner of a mutant that prints one (mutant.Banner).
func serveMCP(ctx context.Context, a *reference.Adapter, name string, mode mcpbridge.Mode, stdout, stderr io.Writer) error {
	tools, err := mcpbridge.ReferenceTools()
	if err != nil {
		return err
	}
	srv, err := mcpbridge.New(a, tools,
		mcpbridge.WithImplementation("toolcert-mutant/"+name, reference.Version),
		mcpbridge.WithLogger(slog.New(slog.NewTextHandler(stderr, nil))))
	if err != nil {
		return err
	}
	mutant.ServeMCP(name, srv)
	if b := mutant.Banner(name); b != "" && mode == mcpbridge.ModeStdio {
		fmt.Fprintln(stdout, b)
	}
	return mcpbridge.ListenAndServe(ctx, srv, mode, a.Config().Listen)
}
