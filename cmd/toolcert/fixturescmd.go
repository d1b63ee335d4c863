package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
)

const fixturesSynopsis = `Usage:
  toolcert fixtures lint [--fixtures DIR] [--profile FILE]
  toolcert fixtures import --openapi SPEC (--operation "METHOD /path" | --operation-id ID) --tool NAME [flags]
  toolcert fixtures record --upstream URL --tool NAME [--listen ADDR] [flags]

lint checks a fixture corpus (docs/fixtures.md), import writes a tool's corpus
folder from an OpenAPI description, record writes one from the answers of a
real upstream seen through a recording proxy. Run "toolcert fixtures
SUBCOMMAND --help" for each one's flags.`

// fixturesCmd dispatches the fixtures subcommands.
func fixturesCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	sub := ""
	if len(args) > 0 {
		sub = args[0]
	}
	switch sub {
	case "lint":
		return fixturesLint(args[1:], stdout, stderr)
	case "import":
		return fixturesImport(args[1:], stdout, stderr)
	case "record":
		return fixturesRecord(ctx, args[1:], stdout, stderr)
	}
	fmt.Fprintln(stderr, fixturesSynopsis)
	if slices.Contains([]string{"-h", "--help", "-help"}, sub) {
		return nil
	}
	return usageErr("fixtures: want the subcommand lint, import or record")
}

const lintSynopsis = `Usage: toolcert fixtures lint [--fixtures DIR] [--profile FILE]

Checks a fixture corpus (docs/fixtures.md): every accepted example passes its
upstream schema and projects to its expected output; every reject fails for
its stated gate and reason and carries a canary; every contract and upstream
schema is closed and compiles under Draft 2020-12 with format assertions.
Each problem is printed with its file and JSON pointer. Then it lists the
decisions an import or a recording left to the owner (tool.json's "decide"):
they are not problems, but toolcert run refuses the corpus until each is
made and its entry deleted (or --allow-open-decisions).

Exit codes: 0 clean (open decisions or not); 1 problems found; 2 usage error.`

// fixturesLint lints a corpus and lists its open decisions.
func fixturesLint(args []string, stdout, stderr io.Writer) error {
	var dir, profile string
	fs := newFlags("fixtures lint", lintSynopsis, stderr)
	fs.StringVar(&dir, "fixtures", "", "corpus `DIR` to lint instead of the built-in corpus")
	fs.StringVar(&profile, "profile", "", "JSON `FILE` with the limits to lint against (default: the reference adapter's)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	p, err := loadProfile(profile)
	if err != nil {
		return err
	}
	fixtures, name := toolcert.Fixtures(), "built-in corpus"
	if dir != "" {
		if fixtures, err = runner.FixturesAt(dir); err != nil {
			return usageErr("--fixtures: %v", err)
		}
		name = dir
	}
	problems := runner.LintCorpus(fixtures, p, time.Now())
	for _, pr := range problems {
		fmt.Fprintln(stdout, reports.Printable(pr.String()))
	}
	open := corpus.Undecided(corpus.New(fixtures))
	if len(open) > 0 {
		fmt.Fprintf(stdout, "open decisions (%d): make each, then delete its entry from the tool's tool.json \"decide\"; until then toolcert run refuses the corpus (or --allow-open-decisions)\n", len(open))
		for _, d := range open {
			fmt.Fprintf(stdout, "  decide %s\n", reports.Printable(d.String()))
		}
	}
	if len(problems) > 0 {
		return &exitError{code: exitFail, err: fmt.Errorf("%d problems", len(problems))}
	}
	if len(open) > 0 {
		fmt.Fprintf(stdout, "%s: clean, with %d open decisions\n", name, len(open))
		return nil
	}
	fmt.Fprintf(stdout, "%s: clean\n", name)
	return nil
}
