package runner

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"testing/fstest"
	"time"

	"github.com/cucumber/godog"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/steps"
	"github.com/toolcert/toolcert/targets"
	"github.com/toolcert/toolcert/variant"
)

// Run runs the features of cfg against its target and returns the result.
// A run whose scenarios fail is not an error: the result says so. Run
// returns an error wrapping ErrConfig for a configuration it cannot run,
// ErrTargetStart (with a result whose one failed scenario, "the target
// starts", holds the start failure) when the target does not start,
// ErrNothingRan (with the result) when no scenario ran or all skipped, and
// ErrInterrupted (with the result so far) when ctx ended first: the
// scenarios that finished keep their status, the others are skipped.
func Run(ctx context.Context, cfg Config) (*reports.Result, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.Seed == 0 {
		cfg.Seed = randomSeed()
	}
	if cfg.Case != "" {
		if _, err := variant.Find(corpus.New(cfg.Fixtures), variant.Options{Seed: cfg.Seed, MaxBytes: cfg.Profile.MaxBytes, MaxDepth: cfg.Profile.MaxDepth}, cfg.Case); err != nil {
			return nil, fmt.Errorf("%w: --case: %w", ErrConfig, err)
		}
		cfg.Features, cfg.FeaturePaths = caseFeature(cfg.Case), []string{"."}
	}
	if err := cfg.selectVersion(); err != nil {
		return nil, err
	}
	dir, cleanup, err := workDir(cfg.WorkDir)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	res := &reports.Result{Tool: "toolcert", Version: cfg.Version, Seed: cfg.Seed, Target: cfg.Target.String(), StartedAt: time.Now().UTC(),
		Shard: cfg.Shard.String(), Level: cfg.level()}
	pc, err := cfg.pool(dir)
	if err != nil {
		return nil, err
	}
	pc.Target = startingTarget{pc.Target}
	pool, err := harness.StartPool(ctx, pc)
	if err != nil {
		return startFailed(ctx, &cfg, res, err)
	}
	suite, err := newSuite(&cfg, pool)
	if err != nil {
		pool.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	rec := &recorder{progress: cfg.Progress, requireAll: cfg.RequireAll, level: cfg.level(), sources: newGherkinSources(cfg.Features),
		variantIDs: suite.VariantIDs}
	paced := harness.Shared.Waited()
	runGodog(ctx, &cfg, suite, rec)
	if d := harness.Shared.Waited() - paced; d > 0 {
		cfg.progressLine(fmt.Sprintf("warning: the machine's connection tracking table (nf_conntrack) was full during the run: scenarios and cases waited %v in all for room before they began, so the run took longer, not its verdicts; raise net.netfilter.nf_conntrack_max to run at full speed (docs/performance.md)", d.Round(time.Millisecond)))
	}
	closeErr := pool.Close(context.WithoutCancel(ctx))
	findings := targetFindings(pool.Lanes(), cfg.progressLine)
	for _, sc := range findings {
		if cfg.Progress != nil {
			reports.Progress(cfg.Progress, sc) // a FAIL line, as every failed scenario has
		}
	}
	res.Scenarios = append(rec.sorted(), findings...)
	res.Summary.UpstreamRequests = rec.requests
	res.Summary.TargetRestarts = pool.Restarts()
	res.Summary.CaseTime = suite.CaseTime()
	res.Summary.Blocked, res.Summary.BlockedRequests = rec.blocked, rec.blockedRq
	res.Summary.Interrupted = ctx.Err() != nil
	conclude(res, &cfg)
	if closeErr != nil {
		cfg.progressLine("warning: " + closeErr.Error())
	}
	if res.Summary.Interrupted {
		return res, fmt.Errorf("%w: %w", ErrInterrupted, context.Cause(ctx))
	}
	if res.Summary.Scenarios == 0 || res.Summary.Skipped == res.Summary.Scenarios {
		return res, ErrNothingRan
	}
	return res, nil
}

// conclude fills what res says of its scenarios: its duration, coverage
// and counts, the baseline's marks, and the states of the corpus's
// controls.
func conclude(res *reports.Result, cfg *Config) {
	res.Duration = reports.Duration(time.Since(res.StartedAt))
	res.Coverage = reports.BuildCoverage(res.Scenarios, variant.Operators())
	res.Tally()
	if cfg.Baseline != nil {
		res.BaselineUnmatched = cfg.Baseline.Apply(res)
	}
	res.Controls = controlsOf(res, cfg.Fixtures)
}

// The scenario a run whose target did not start reports in its stead.
const (
	startName = "the target starts"
	startStep = "the target starts on every lane"
)

// startFailed returns the result and the error of a run whose lanes did
// not start with err: interrupted when ctx ended first; for the target's
// own failure (startingTarget marks it), one failed scenario saying why,
// and ErrTargetStart; for anything else (the mock upstream's address, the
// lanes' folders), ErrConfig alone.
func startFailed(ctx context.Context, cfg *Config, res *reports.Result, err error) (*reports.Result, error) {
	var start *startError
	switch {
	case ctx.Err() != nil:
		res.Summary.Interrupted = true
		conclude(res, cfg)
		return res, fmt.Errorf("%w: %w", ErrInterrupted, context.Cause(ctx))
	case !errors.As(err, &start):
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	sc := targetScenario(startName, startStep, err.Error(), reports.Duration(time.Since(res.StartedAt)))
	sc.Steps[0].Keyword = "Given"
	res.Scenarios = []reports.Scenario{sc}
	conclude(res, cfg)
	if cfg.Progress != nil {
		reports.Progress(cfg.Progress, sc)
	}
	return res, fmt.Errorf("%w: %w", ErrTargetStart, err)
}

// startingTarget is the run's target as its lanes start it: a failure of
// its Start is marked as the target's own (a startError), apart from the
// lane's other failures.
type startingTarget struct {
	targets.Target
}

func (t startingTarget) Start(ctx context.Context, env targets.Env) (targets.Instance, error) {
	inst, err := t.Target.Start(ctx, env)
	if err != nil {
		return nil, &startError{err}
	}
	return inst, nil
}

// startError is the error of the target's own Start.
type startError struct{ err error }

func (e *startError) Error() string { return e.err.Error() }
func (e *startError) Unwrap() error { return e.err }

// runGodog runs the features on the lanes; once ctx is done, the scenario
// in flight on each lane stops and every later one is skipped.
func runGodog(ctx context.Context, cfg *Config, suite *steps.Suite, rec *recorder) {
	godog.TestSuite{
		Name: "toolcert",
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			shardHook(sc, cfg.Shard)
			steps.Register(sc, suite)
			rec.hook(sc)
		},
		Options: &godog.Options{
			Format:      "progress",
			Output:      io.Discard,
			FS:          cfg.Features,
			Paths:       cfg.FeaturePaths,
			Tags:        cfg.Tags,
			Concurrency: cfg.Concurrency,
			Strict:      true,
			NoColors:    true,

			DefaultContext: ctx,
		},
	}.Run()
}

// isV1 reports whether the agent speaks protocol v1, whose adapters get
// their limits from the harness (TOOLCERT_MAX_BYTES and the rest).
func isV1(a harness.Agent) bool {
	_, ok := a.(harness.V1Agent)
	return ok
}

// newSuite returns what every scenario of the run shares: the corpus,
// the profile, the lanes, and how the agent calls the target with what the
// target has. A tool map naming a tool the server does not list is a
// configuration error.
func newSuite(cfg *Config, pool *harness.Pool) (*steps.Suite, error) {
	client := targets.NewClient(targets.WithTimeout(cfg.Profile.CallTimeout()))
	agent, caps, tools, err := describe(pool, cfg, client)
	if err != nil {
		return nil, err
	}
	return &steps.Suite{
		Agent:          agent,
		Capabilities:   caps,
		FirstTools:     tools,
		FirstUpstream:  pool.Lanes()[0].Upstream.URL(),
		LimitsDeclared: !cfg.profileDefaulted || isV1(agent),
		Corpus:         corpus.New(cfg.Fixtures),
		Profile:        cfg.Profile,
		Seed:           cfg.Seed,
		Client:         client,
		Lanes:          pool,
		Now:            cfg.Now,

		ReproduceFlags:  cfg.ReproduceFlags,
		UpstreamVersion: cfg.UpstreamVersion,
		Level:           cfg.level(),
		Tools:           cfg.Tools,
		Warn:            cfg.progressLine,
	}, nil
}

// sorted returns the scenarios ordered by feature and name, whatever order the lanes
// finished them in, so that reports of two runs compare line by line.
func (r *recorder) sorted() []reports.Scenario {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := append([]reports.Scenario(nil), r.scenarios...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// caseFeature is a feature of one scenario that runs one generated variant.
func caseFeature(id string) fs.FS {
	q, _ := json.Marshal(id)
	text := fmt.Sprintf("Feature: one generated case\n  Scenario: %s\n    Then the generated variant %s is handled as expected without leaking\n", id, q)
	return fstest.MapFS{"case.feature": {Data: []byte(text)}}
}

func workDir(dir string) (string, func(), error) {
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", nil, fmt.Errorf("%w: create work dir: %w", ErrConfig, err)
		}
		return dir, func() {}, nil
	}
	tmp, err := os.MkdirTemp("", "toolcert-")
	if err != nil {
		return "", nil, fmt.Errorf("create work dir: %w", err)
	}
	return tmp, func() { os.RemoveAll(tmp) }, nil
}

func randomSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:]) | 1
}
