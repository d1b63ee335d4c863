package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

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
a skip, an unexpected pass); 2 usage or configuration error, no scenario ran,
or the run was interrupted (SIGINT or SIGTERM: the scenario in flight stops,
the rest are skipped, and the reports are still written; a second signal ends
toolcert at once).`

// runFlags are the flags of run that runner.Config does not hold.
type runFlags struct {
	out, formats, writeBaseline, fixtures string
	quiet                                 bool
	target                                targetFlags
}

func runCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var (
		f   runFlags
		cfg runner.Config
	)
	fs := newFlags("run", runSynopsis, stderr)
	fs.Func("features", "`DIR` or .feature file to run instead of the built-in features", func(p string) (err error) {
		cfg.Features, cfg.FeaturePaths, err = runner.FeaturesAt(p)
		return err
	})
	fs.Func("fixtures", "fixture corpus `DIR` (one folder per tool) instead of the built-in corpus", func(dir string) (err error) {
		f.fixtures = dir
		cfg.Fixtures, err = runner.FixturesAt(dir)
		return err
	})
	fs.StringVar(&cfg.Tags, "tags", "", "godog tag `EXPRESSION` selecting scenarios: && is and, ~ is not, a comma is or,\ne.g. \"@transport && ~@slow\"")
	fs.IntVar(&cfg.Concurrency, "concurrency", runner.DefaultConcurrency, "number of lanes (isolated mock upstream + target pairs) running scenarios in parallel")
	fs.Uint64Var(&cfg.Seed, "seed", 0, "seed for the canaries; 0 picks a random one (printed in the summary)")
	fs.StringVar(&f.out, "out", "toolcert-report", "`DIR` for the reports and each lane's audit log")
	fs.StringVar(&f.formats, "format", strings.Join(reports.DefaultFormats, ","), "report formats to write into --out, a comma-separated `LIST` or \"all\":\n"+formatHelp())
	fs.BoolVar(&f.quiet, "quiet", false, "print no progress line per scenario (standard error) and no coverage matrix;\nthe summary (standard output) stays")
	fs.StringVar(&cfg.UpstreamVersion, "upstream-version", "", "certify against one upstream `VERSION` (v1, v2...): its generated variants only, and no feature tagged\n@upstream-<other version>; the adapter's support comes from --profile upstream_versions")
	fs.StringVar(&cfg.Case, "case", "", "run one generated variant alone, by the `ID` a report gives (use the report's --seed too)")
	fs.Func("baseline", "baseline `FILE` of expected failures (scenario and case IDs): listed failures do not fail the\nrun, new failures do, and so does a listed failure that now passes (see docs/baseline.md)", func(path string) (err error) {
		cfg.Baseline, err = reports.LoadBaseline(path)
		return err
	})
	fs.Func("shard", "run only shard `K/N` of the scenarios (by a stable hash of each scenario's ID), for a CI matrix;\njoin the shards' results.json with toolcert merge (use one --seed for all shards)", func(s string) (err error) {
		cfg.Shard, err = runner.ParseShard(s)
		return err
	})
	fs.BoolVar(&cfg.RequireAll, "require-all", false, "make every not-applicable scenario a failure (a step that needs a capability the target lacks:\nan audit log, a policy with sessions and grants, approvals; docs/protocol.md)")
	fs.StringVar(&f.writeBaseline, "write-baseline", "", "write this run's failures to `FILE` as a baseline (before --baseline is applied)")
	f.target.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	formats, err := parseFormats(f.formats)
	if err != nil {
		return err
	}
	if err := f.complete(&cfg, stderr); err != nil {
		return err
	}
	res, runErr := runner.Run(ctx, cfg)
	if res == nil {
		return &exitError{code: exitConfig, err: runErr}
	}
	paths, werr := reports.Write(f.out, res, formats...)
	if werr == nil && f.writeBaseline != "" {
		if werr = reports.WriteBaseline(f.writeBaseline, reports.BaselineOf(res)); werr == nil {
			paths = append(paths, f.writeBaseline)
		}
	}
	terr := reports.Text(stdout, res, reports.TextOptions{Coverage: !f.quiet, Files: paths})
	return runExit(res, runErr, errors.Join(werr, terr))
}

// runExit maps a finished run onto the exit code: 2 when the reports could
// not be written, the run was interrupted or ran nothing; 1 when its
// verdict is not a pass; 0 otherwise.
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

// complete fills cfg with what the flags choose beyond its own fields:
// the target and its profile, the work folder, progress and reproducers.
func (f *runFlags) complete(cfg *runner.Config, stderr io.Writer) (err error) {
	if cfg.Target, cfg.Profile, err = f.target.build(); err != nil {
		return err
	}
	if cfg.Concurrency < 1 {
		return usageErr("--concurrency must be at least 1")
	}
	cfg.UpstreamListen, cfg.AuditFile = f.target.upstreamListen, f.target.auditFile
	cfg.WorkDir, cfg.Version, cfg.ReproduceFlags = filepath.Join(f.out, "lanes"), version, f.reproduceFlags()
	if !f.quiet {
		cfg.Progress = stderr
	}
	if cfg.Fixtures != nil && cfg.Features == nil && cfg.Case == "" {
		fmt.Fprintln(stderr, "toolcert: warning: --fixtures without --features runs the built-in features, which name the built-in tools, against your corpus")
	}
	return nil
}

// reproduceFlags are the flags a generated case's reproducer repeats: the
// corpus and the target.
func (f *runFlags) reproduceFlags() string {
	var words []string
	if f.fixtures != "" {
		words = append(words, "--fixtures", f.fixtures)
	}
	return reports.Command(append(words, f.target.words()...)...)
}
