package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/runner"
)

const fixturesSynopsis = `Usage: toolcert fixtures lint [--fixtures DIR] [--profile FILE]

Checks a fixture corpus (docs/fixtures.md): every accepted example passes its
upstream schema and projects to its expected output; every reject fails for
its stated gate and reason and carries a canary; every contract and upstream
schema is closed and compiles under Draft 2020-12 with format assertions.
Each problem is printed with its file and JSON pointer.

Exit codes: 0 clean; 1 problems found; 2 usage error.`

func fixturesCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "lint" {
		fmt.Fprintln(stderr, fixturesSynopsis)
		if len(args) > 0 && slices.Contains([]string{"-h", "--help", "-help"}, args[0]) {
			return nil
		}
		return usageErr("fixtures: want the subcommand lint")
	}
	var dir, profile string
	fs := newFlags("fixtures lint", fixturesSynopsis, stderr)
	fs.StringVar(&dir, "fixtures", "", "corpus `DIR` to lint instead of the built-in corpus")
	fs.StringVar(&profile, "profile", "", "JSON `FILE` with the limits to lint against (default: the reference adapter's)")
	if err := parseFlags(fs, args[1:]); err != nil {
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
		fmt.Fprintln(stdout, pr)
	}
	if len(problems) > 0 {
		return &exitError{code: exitFail, err: fmt.Errorf("%d problems", len(problems))}
	}
	fmt.Fprintf(stdout, "%s: clean\n", name)
	return nil
}
