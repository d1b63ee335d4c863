package runner

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"time"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
)

// Config is one run, as the CLI's flags describe it. Target is required;
// every other field's zero value is the built-in run's: the built-in
// features and corpus, DefaultConcurrency lanes, the default profile, a
// random seed, a temporary work folder.
type Config struct {
	// Features holds the .feature files; FeaturePaths are the files or
	// folders inside it to run (default: "."). When both are unset, the
	// run uses the built-in features.
	Features     fs.FS
	FeaturePaths []string
	// Fixtures is the corpus: one folder per tool (default: the built-in
	// corpus).
	Fixtures fs.FS
	// Tags is a godog tag expression such as "@transport && ~@slow".
	Tags string
	// Concurrency is the number of lanes; each lane runs one scenario at a
	// time with its own mock upstream and target (default
	// DefaultConcurrency). A run starts no more lanes than the scenarios
	// it selects can use: one per scenario, or all of them when one runs
	// generated variants, whose cases borrow every free lane.
	Concurrency int
	// Seed derives every canary; 0 means a fresh random seed.
	Seed uint64
	// Target is the adapter under test.
	Target targets.Target
	// Profile is what the target declares about its limits; a Profile with
	// no field set is targets.DefaultProfile().
	Profile targets.Profile
	// Tools maps corpus tools onto an MCP target's tools (a tool without
	// an entry maps to itself); a protocol v1 target takes only their
	// volatile parts and comparisons.
	Tools map[string]targets.ToolMap
	// Capabilities, when set, replaces what the target declares it has
	// (audit, policy, approvals); nil keeps the target's own: every one
	// for protocol v1 (audit when the harness can read the log), what an
	// MCP server declares in its initialize result.
	Capabilities *targets.Capabilities
	// RequireAll makes every not-applicable scenario a failure, at every
	// level.
	RequireAll bool
	// Level is the level the run certifies (docs/protocol.md, "Levels"):
	// the result's statuses, summary and verdict follow it. Every scenario
	// and generated case is judged at both levels. "" is
	// reports.DefaultLevel (strict).
	Level reports.Level
	// AllowOpenDecisions runs a corpus whose tools still list decisions
	// left to their owner (tool.json's "decide", corpus.Undecided); without
	// it such a corpus is a configuration error.
	AllowOpenDecisions bool
	// UpstreamListen is where the mock listens when the target is already
	// running (targets.URL): the target must be wired to this address.
	// Such a run has one lane.
	UpstreamListen string
	// AuditFile is the audit log of an already running target; "" when the
	// harness cannot read it. Ignored for targets the harness starts.
	AuditFile string
	// WorkDir receives each lane's audit log; "" means a temporary folder
	// that is removed after the run.
	WorkDir string
	// Progress receives a line per finished scenario; nil means none.
	Progress io.Writer
	// Now is the clock scenarios render timestamps with; nil is time.Now.
	Now func() time.Time
	// Version is the harness version written into the result.
	Version string
	// UpstreamVersion, when set, certifies against one upstream version:
	// generated variants of that version only, and no feature tagged for
	// another version (@upstream-v1 ...).
	UpstreamVersion string
	// Case, when set, runs that one generated variant alone (its ID, as a
	// report's reproducer names it) instead of the features.
	Case string
	// ReproduceFlags are the CLI flags that chose the target and corpus,
	// repeated in each generated case's reproducer.
	ReproduceFlags string
	// Baseline, when set, marks the failures it lists as expected and the
	// listed outcomes that passed as unexpected (reports.Baseline.Apply).
	Baseline *reports.Baseline
	// Shard, when set, runs only the scenarios of that shard.
	Shard Shard

	// profileDefaulted records that Profile was left zero and is the
	// default: the target declared no limits (steps.Suite.LimitsDeclared).
	profileDefaulted bool
}

// ErrConfig is wrapped by every configuration error: the CLI maps it to
// exit code 2.
var ErrConfig = errors.New("configuration error")

// ErrTargetStart means the target did not start on every lane: it exited,
// was never ready, could not be run. Run returns it with a result of one
// failed scenario that says why, so that the reports can still be written.
var ErrTargetStart = errors.New("the target did not start")

// ErrNothingRan means the run selected no scenario, or skipped every one:
// that is not a pass.
var ErrNothingRan = errors.New("no scenario ran")

// ErrInterrupted means the run's context ended (a signal, a CI cancel)
// before every scenario ran: the result holds what finished.
var ErrInterrupted = errors.New("run interrupted")

// pool is the lane pool's configuration of the run, its lanes' folders
// under dir, its mocks serving the corpus's side routes.
func (c *Config) pool(dir string) (harness.PoolConfig, error) {
	side, err := sideRoutes(c.Fixtures)
	if err != nil {
		return harness.PoolConfig{}, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return harness.PoolConfig{
		Lanes: c.lanes(), Target: c.Target, Profile: c.Profile, Fixtures: c.Fixtures,
		UpstreamListen: c.UpstreamListen, AuditFile: c.AuditFile, Dir: dir, Side: side,
	}, nil
}

// progressLine writes line to Progress, made printable (it may quote the
// adapter), when there is a Progress.
func (c *Config) progressLine(line string) {
	if c.Progress != nil {
		fmt.Fprintln(c.Progress, reports.Printable(line))
	}
}

// DefaultConcurrency is the number of lanes of a Config that sets none.
// Four lanes on two cores: a good part of a run waits on wall-clock time
// (an upstream that never answers, a dribble, an approval that expires),
// and the other lanes work meanwhile; the built-in run takes about 4.3 s
// with four lanes on two cores, 5.6 s with two (BenchmarkVariantsLanes,
// BenchmarkBuiltinRun).
const DefaultConcurrency = 4

// withDefaults fills the fields c leaves zero with the built-in run's.
func (c *Config) withDefaults() {
	if c.Features == nil && len(c.FeaturePaths) == 0 {
		c.Features, c.FeaturePaths = toolcert.Features(), []string{"features"}
	}
	if c.Features == nil {
		c.Features = toolcert.Features()
	}
	if len(c.FeaturePaths) == 0 {
		c.FeaturePaths = []string{"."}
	}
	if c.Fixtures == nil {
		c.Fixtures = toolcert.Fixtures()
	}
	if c.Concurrency == 0 {
		c.Concurrency = DefaultConcurrency
	}
	c.profileDefaulted = reflect.ValueOf(c.Profile).IsZero()
	c.Profile = orDefault(c.Profile)
}

// orDefault returns p, or targets.DefaultProfile() when no field of p is
// set.
func orDefault(p targets.Profile) targets.Profile {
	if reflect.ValueOf(p).IsZero() {
		return targets.DefaultProfile()
	}
	return p
}

func (c *Config) check() error {
	c.withDefaults()
	switch {
	case c.Target == nil:
		return fmt.Errorf("%w: no target", ErrConfig)
	case c.Concurrency < 0:
		return fmt.Errorf("%w: concurrency must be at least 1", ErrConfig)
	case c.Shard.Count < 0 || c.Shard.Count > 0 && (c.Shard.Index < 1 || c.Shard.Index > c.Shard.Count):
		return fmt.Errorf("%w: shard %d/%d: want 1 <= K <= N", ErrConfig, c.Shard.Index, c.Shard.Count)
	}
	if _, err := reports.ParseLevel(string(c.Level)); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if b := c.Baseline; b != nil && b.LevelOf() != c.level() {
		return fmt.Errorf("%w: the baseline lists the failures of level %s, and the run certifies level %s: write one at this level with --write-baseline",
			ErrConfig, b.LevelOf(), c.level())
	}
	if err := c.Profile.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return c.checkCorpus()
}

// level is the level the run certifies.
func (c *Config) level() reports.Level {
	if c.Level == "" {
		return reports.DefaultLevel
	}
	return c.Level
}
