package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/toolcert/toolcert/reports"
)

// version is the harness version; release builds set it with -ldflags.
var version = "0.1.0-dev"

// Exit codes CI can trust.
const (
	exitPass   = 0 // every scenario passed
	exitFail   = 1 // a scenario failed or was skipped
	exitConfig = 2 // usage or configuration error, nothing ran, no target started
)

// exitError carries an exit code up to run.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageErr(format string, args ...any) error {
	return &exitError{code: exitConfig, err: fmt.Errorf(format, args...)}
}

// configErr returns err as a configuration error (exit code 2).
func configErr(err error) error {
	return &exitError{code: exitConfig, err: err}
}

const usage = `toolcert certifies that an adapter between an upstream tool and an LLM agent
lets nothing rejected reach the agent, and nothing denied reach the upstream.

Usage:
  toolcert run [flags]        run the features against a target (default: the
                              built-in features against the reference adapter)
  toolcert replay [flags]     serve one captured body through a protocol v1 target
                              once and print the agent-visible output, audit and
                              leak verdict
  toolcert fixtures lint      check a fixture corpus (built-in, or --fixtures DIR)
  toolcert fixtures import    write a tool's corpus folder from an OpenAPI description
  toolcert fixtures record    write one from a real upstream's answers, through a
                              recording proxy
  toolcert discover --openapi SPEC --target-mcp-cmd CMD
                              learn every tool of an MCP server against a mock
                              of its upstream, and write the config, a corpus
                              per tool and the features that certify them
  toolcert merge FILE...      join the results.json of the shards of one run
                              (run --shard K/N) into the whole run's reports
  toolcert keygen --out DIR   write an ed25519 key pair for signing attestations
  toolcert certify --key FILE [run flags]
                              run as toolcert run does, then write a signed
                              attestation of the result (in-toto test-result
                              in a DSSE envelope; docs/attestations.md)
  toolcert verify ATTESTATION --pubkey FILE [--subject PATH|IMAGE] [--level safe|strict]
                              check an attestation's signature, subject,
                              upstream version and result
  toolcert matrix ATTESTATION...
                              adapters x upstream versions from attestations,
                              as Markdown or HTML
  toolcert adapter [--mcp M]  serve the reference adapter from the TOOLCERT_*
                              environment (docs/protocol.md), over protocol v1
                              or as an MCP server (--mcp stdio|http)
  toolcert version            print the version
  toolcert help [command]     show help for a command

Exit codes: 0 the run passed; 1 it did not (a failure no baseline explains,
a skip, an unexpected pass, a finding about the target); 2 usage or
configuration error, no scenario ran, the target did not start or the run
was interrupted (in the last two cases the reports are still written).
certify exits as run does; verify and matrix exit 1 when an attestation
does not verify; discover exits 1 when it maps no tool (toolcert help
COMMAND).
`

// run is the whole CLI; main only calls it and exits with its code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	err := printableErr(dispatch(ctx, args, stdout, stderr))
	if err == nil {
		return exitPass
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitPass
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.code != exitFail {
			fmt.Fprintf(stderr, "toolcert: %v\n", ee.err)
		}
		return ee.code
	}
	fmt.Fprintf(stderr, "toolcert: %v\n", err)
	return exitConfig
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usageErr("no command given")
	}
	switch args[0] {
	case "run":
		return runCmd(ctx, args[1:], stdout, stderr)
	case "replay":
		return replayCmd(ctx, args[1:], stdout, stderr)
	case "adapter":
		return adapterCmd(ctx, args[1:], stdout, stderr)
	case "discover":
		return discoverCmd(ctx, args[1:], stdout, stderr)
	case "fixtures":
		return fixturesCmd(ctx, args[1:], stdout, stderr)
	case "merge":
		return mergeCmd(ctx, args[1:], stdout, stderr)
	case "keygen":
		return keygenCmd(ctx, args[1:], stdout, stderr)
	case "certify":
		return certifyCmd(ctx, args[1:], stdout, stderr)
	case "verify":
		return verifyCmd(ctx, args[1:], stdout, stderr)
	case "matrix":
		return matrixCmd(ctx, args[1:], stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintf(stdout, "toolcert %s\n", version)
		return nil
	case "help", "-h", "--help", "-help":
		return helpCmd(ctx, args[1:], stdout, stderr)
	}
	fmt.Fprint(stderr, usage)
	return usageErr("unknown command %q", args[0])
}

func helpCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return nil
	}
	return dispatch(ctx, []string{args[0], "-h"}, stdout, stderr)
}

// newFlags returns a flag set that prints its usage to w and reports
// errors instead of exiting.
func newFlags(name, synopsis string, w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(w)
	fs.Usage = func() {
		fmt.Fprintf(w, "%s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseArgs parses args, leaving the arguments after the flags in
// fs.Args, and turns a flag error into a usage error.
func parseArgs(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		return usageErr("%s: %v", fs.Name(), err)
	}
	return err
}

// parseFlags parses args as parseArgs does and refuses arguments after the
// flags.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("%s: unexpected arguments %q", fs.Name(), fs.Args())
	}
	return nil
}

// parseInterspersed parses args as parseArgs does, flags and arguments in
// any order (verify ATTESTATION --pubkey FILE), and returns the arguments;
// after "--" every word is an argument.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := parseArgs(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(positional, rest...), nil
		}
		positional, args = append(positional, rest[0]), rest[1:]
	}
}

// visited returns the names of the flags of fs that the user set.
func visited(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// printableErr returns err with a message a terminal can print: the errors
// of run and replay quote the adapter (a start failure, its output's tail), so every
// line is made reports.Printable and the lines after the first are indented
// under it, where no quoted line passes for toolcert's own. errors.Is and
// errors.As see through it; nil stays nil.
func printableErr(err error) error {
	if err == nil {
		return nil
	}
	if ee, ok := err.(*exitError); ok {
		return &exitError{code: ee.code, err: printableError{ee.err}}
	}
	return printableError{err}
}

// printableError is an error whose message is made printable.
type printableError struct{ err error }

func (e printableError) Error() string {
	msg := strings.TrimRight(reports.Printable(e.err.Error()), "\n")
	return strings.ReplaceAll(msg, "\n", "\n  | ")
}

func (e printableError) Unwrap() error { return e.err }
