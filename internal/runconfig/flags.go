package runconfig

import (
	"strings"
	"time"

	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
)

// Flags are the values of the flags of toolcert run, one field per flag.
// A config file holds each as a key of the flag's name (Keys), but for the
// flags that choose a target, which its target mapping stands for.
type Flags struct {
	// Features is a folder of .feature files or one .feature file; ""
	// runs the built-in features.
	Features string
	// Fixtures is a corpus folder; "" is the built-in corpus.
	Fixtures string
	// Tags is a godog tag expression selecting scenarios.
	Tags string
	// Concurrency is the number of lanes.
	Concurrency int
	// Seed derives the canaries; 0 picks a random one.
	Seed uint64
	// Out is the folder of the reports and of each lane's audit log.
	Out string
	// Format lists the report formats, comma-separated, or "all".
	Format string
	// Quiet leaves out the progress lines and the coverage matrix.
	Quiet bool
	// UpstreamVersion certifies against one upstream version.
	UpstreamVersion string
	// Case runs one generated variant alone, by its ID.
	Case string
	// Baseline is a baseline file of expected failures.
	Baseline string
	// Shard is "K/N": the part of the scenarios to run.
	Shard string
	// WriteBaseline is where to write this run's failures as a baseline.
	WriteBaseline string
	// RequireAll makes every not-applicable scenario a failure.
	RequireAll bool
	// Level is the level the run certifies, safe or strict ("" is
	// strict): the exit code follows it.
	Level string
	// AllowOpenDecisions runs a corpus whose tools still list decisions
	// left to the owner (tool.json's "decide").
	AllowOpenDecisions bool
	// Profile is the JSON file of the target's profile.
	Profile string
	// UpstreamListen is the mock's address for a target already running.
	UpstreamListen string
	// AuditFile is the audit log of a target already running.
	AuditFile string
	// ReadyTimeout bounds how long each target instance may take to be
	// ready; 0 is the driver's default.
	ReadyTimeout time.Duration
	// TargetCmd, TargetURL, TargetImage, TargetMCPCmd and TargetMCPURL
	// choose the target (at most one): a v1 process, a v1 adapter already
	// running, a v1 image, an MCP server over stdio, an MCP server over
	// streamable HTTP already running.
	TargetCmd, TargetURL, TargetImage, TargetMCPCmd, TargetMCPURL string
}

// DefaultFlags returns the flags' defaults: what a run without flags and
// without a config file uses. The CLI must register each flag with the
// default this gives.
func DefaultFlags() Flags {
	return Flags{
		Concurrency: runner.DefaultConcurrency,
		Out:         "toolcert-report",
		Format:      strings.Join(reports.DefaultFormats, ","),
	}
}
