package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/toolcert/toolcert/internal/runconfig"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
)

const runSynopsis = `Usage: toolcert run [flags]

Runs Gherkin features against a target adapter and writes results.json and
junit.xml into --out. With no flags it runs the built-in features and
fixtures against the built-in reference adapter, in-process.

Each lane is an isolated mock upstream plus its own target instance; lanes run
scenarios in parallel (--concurrency). Canaries are derived from --seed (a
random one when 0, printed in the summary), so a run can be reproduced.

Exit codes: 0 the run passed; 1 it did not (a failure no baseline explains,
a skip, an unexpected pass, a finding about the target such as a listener
beyond loopback); 2 usage or configuration error, no scenario ran,
the target did not start (the reports are still written, with the start
failure as the failed scenario "the target starts"), or the run was
interrupted (SIGINT or SIGTERM: the scenario in flight stops, the rest are
skipped, and the reports are still written; a second signal ends toolcert at
once). toolcert cannot tell who sent the signal: any process of your user
can, an adapter run as a process included.

A target config file (--config FILE, docs/config.md) names the target, maps
the corpus's tools onto its tools and may hold any of the flags below as a
key; the flags given here replace its keys.`

// runCmd parses the flags of run, runs it and writes its reports and
// summary.
func runCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, f, config := runFlagSet(stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	r, err := loadRun(*config, *f, visited(fs))
	if err != nil {
		return err
	}
	_, err = runSuite(ctx, r, nil, stdout, stderr)
	return err
}

// runSuite runs r as toolcert run does, writes its reports and summary,
// and returns the finished run (nil when none ran: a configuration error)
// with the run's exit error. prepare, when set, may change the runner
// config just before the run (certify wraps the target).
func runSuite(ctx context.Context, r runconfig.Run, prepare func(*runner.Config) error, stdout, stderr io.Writer) (*finishedRun, error) {
	formats, err := parseFormats(r.Format)
	if err != nil {
		return nil, err
	}
	cfg, err := r.Config()
	if err != nil {
		return nil, configErr(err)
	}
	if prepare != nil {
		if err := prepare(&cfg); err != nil {
			return nil, configErr(err)
		}
	}
	cfg.Version = version
	if !r.Quiet {
		cfg.Progress = stderr
	}
	if cfg.Fixtures != nil && cfg.Features == nil && cfg.Case == "" {
		fmt.Fprintln(stderr, "toolcert: warning: --fixtures without --features runs the built-in features, which name the built-in tools, against your corpus")
	}
	res, runErr := runner.Run(ctx, cfg)
	if res == nil {
		return nil, configErr(runErr)
	}
	paths, werr := reports.Write(r.Out, res, formats...)
	if werr == nil && r.WriteBaseline != "" {
		if werr = reports.WriteBaseline(r.WriteBaseline, reports.BaselineOf(res)); werr == nil {
			paths = append(paths, r.WriteBaseline)
		}
	}
	terr := reports.Text(stdout, res, reports.TextOptions{Coverage: !r.Quiet, Files: paths})
	return &finishedRun{cfg: cfg, res: res, err: runErr}, runExit(res, runErr, errors.Join(werr, terr))
}

// finishedRun is a run that produced a result: its runner config, its
// result and the error runner.Run returned with it.
type finishedRun struct {
	cfg runner.Config
	res *reports.Result
	err error
}

// runFlagSet returns the flag set of run, bound to the fields of the
// returned flags (with their defaults) and to the --config path.
func runFlagSet(stderr io.Writer) (*flag.FlagSet, *runconfig.Flags, *string) {
	f := runconfig.DefaultFlags()
	fs := newFlags("run", runSynopsis, stderr)
	config := fs.String("config", "", "target config `FILE` (YAML, docs/config.md): the target, how its tools map, and any flag of run\nas a key of the same name; a flag given here replaces its key, a target flag the file's kind and\ncommand, url or image. Relative paths in it are under its folder")
	fs.StringVar(&f.Features, "features", f.Features, "`DIR` or .feature file to run instead of the built-in features")
	fs.StringVar(&f.Fixtures, "fixtures", f.Fixtures, "fixture corpus `DIR` (one folder per tool) instead of the built-in corpus")
	fs.StringVar(&f.Tags, "tags", f.Tags, "godog tag `EXPRESSION` selecting scenarios: && is and, ~ is not, a comma is or,\ne.g. \"@transport && ~@slow\"")
	fs.IntVar(&f.Concurrency, "concurrency", f.Concurrency, "number of lanes (isolated mock upstream + target pairs) running scenarios in parallel; no more start\nthan the selected scenarios can use: one each, or all when one runs generated variants")
	fs.Uint64Var(&f.Seed, "seed", f.Seed, "seed for the canaries; 0 picks a random one (printed in the summary)")
	fs.StringVar(&f.Out, "out", f.Out, "`DIR` for the reports and each lane's audit log")
	fs.StringVar(&f.Format, "format", f.Format, "report formats to write into --out, a comma-separated `LIST` or \"all\":\n"+formatHelp())
	fs.BoolVar(&f.Quiet, "quiet", f.Quiet, "print no progress line per scenario (standard error) and no coverage matrix;\nthe summary (standard output) stays")
	fs.StringVar(&f.UpstreamVersion, "upstream-version", f.UpstreamVersion, "certify against one upstream `VERSION` (v1, v2...): its generated variants only, and no feature tagged\n@upstream-<other version>; the adapter's support comes from --profile upstream_versions")
	fs.StringVar(&f.Case, "case", f.Case, "run one generated variant alone, by the `ID` a report gives (use the report's --seed too)")
	fs.StringVar(&f.Baseline, "baseline", f.Baseline, "baseline `FILE` of expected failures (scenario and case IDs): listed failures do not fail the\nrun, new failures do, and so does a listed failure that now passes (see docs/baseline.md)")
	fs.StringVar(&f.Shard, "shard", f.Shard, "run only shard `K/N` of the scenarios (by a stable hash of each scenario's ID), for a CI matrix;\njoin the shards' results.json with toolcert merge (use one --seed for all shards)")
	fs.StringVar(&f.Level, "level", f.Level, "the `LEVEL` the run certifies, safe or strict (default strict): the exit code follows it.\nEvery scenario and generated case is judged at both; safe asks what every adapter owes the agent\n(nothing rejected reaches it, it sees exactly what the honest answer shows or a fixed failure),\nstrict is protocol v1 as written (docs/protocol.md, \"Levels\")")
	fs.BoolVar(&f.RequireAll, "require-all", f.RequireAll, "make every not-applicable scenario a failure (a step that needs a capability the target lacks:\nan audit log, a policy with sessions and grants, approvals; docs/protocol.md)")
	fs.BoolVar(&f.AllowOpenDecisions, "allow-open-decisions", f.AllowOpenDecisions, "run a corpus whose tools still list decisions left to their owner after an import or a\nrecording (tool.json's \"decide\"; toolcert fixtures lint lists them): its verdict certifies nothing yet")
	fs.StringVar(&f.WriteBaseline, "write-baseline", f.WriteBaseline, "write this run's failures to `FILE` as a baseline (before --baseline is applied)")
	registerTarget(fs, &f)
	return fs, &f, config
}

// loadRun reads the config file at path, when one is given, and lays the
// flags the user set over it.
func loadRun(path string, f runconfig.Flags, set map[string]bool) (runconfig.Run, error) {
	var file *runconfig.File
	if path != "" {
		var err error
		if file, err = runconfig.Load(path); err != nil {
			return runconfig.Run{}, configErr(err)
		}
	}
	r, err := runconfig.Merge(file, f, set)
	if err != nil {
		return r, configErr(err)
	}
	return r, nil
}

// runExit maps a finished run onto the exit code: 2 when the reports could
// not be written, the run was interrupted, ran nothing or its target did
// not start (runner.ErrTargetStart: the reports hold the start failure);
// 1 when its verdict is not a pass; 0 otherwise.
func runExit(res *reports.Result, runErr, writeErr error) error {
	switch {
	case writeErr != nil:
		return &exitError{code: exitConfig, err: fmt.Errorf("write reports: %w", writeErr)}
	case errors.Is(runErr, runner.ErrInterrupted):
		return &exitError{code: exitConfig, err: fmt.Errorf("%w: the reports hold the %d scenarios that finished; the %d skipped did not run",
			runErr, res.Summary.Passed+res.Summary.Failed, res.Summary.Skipped)}
	case errors.Is(runErr, runner.ErrNothingRan):
		return &exitError{code: exitConfig, err: fmt.Errorf("%w: check --tags and --features", runErr)}
	case runErr != nil:
		return &exitError{code: exitConfig, err: runErr}
	}
	if v, why := res.Summary.Verdict(); v != reports.VerdictPassed {
		return &exitError{code: exitFail, err: fmt.Errorf("not a pass: %s", strings.Join(why, "; "))}
	}
	return nil
}
