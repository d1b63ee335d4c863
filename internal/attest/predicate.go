package attest

import (
	"time"

	"github.com/toolcert/toolcert/reports"
)

// Result is the outcome a test-result predicate states.
type Result string

// The results of a test-result predicate.
const (
	// Passed: the run passed, no failure needed a baseline.
	Passed Result = "PASSED"
	// Warned: the run passed only because a baseline expected its
	// failures; they are the predicate's warnedTests.
	Warned Result = "WARNED"
	// Failed: the run did not pass, was interrupted, ran nothing, or its
	// target did not start.
	Failed Result = "FAILED"
)

// TestResult is the predicate of https://in-toto.io/attestation/test-result/v0.1
// as toolcert fills it: the result at the level the run certifies, the
// run's configuration, the IDs of the scenarios that passed, failed as a
// baseline expected (warned) and failed otherwise at that level, and
// toolcert's own extension field (which names the level, and the result
// at each level).
type TestResult struct {
	Result        Result               `json:"result"`
	Configuration []ResourceDescriptor `json:"configuration"`
	URL           string               `json:"url,omitempty"`
	PassedTests   []string             `json:"passedTests"`
	WarnedTests   []string             `json:"warnedTests"`
	FailedTests   []string             `json:"failedTests"`
	// Toolcert is an extension field (the in-toto parsing rules let a
	// producer add one; consumers that do not know it ignore it).
	Toolcert Run `json:"toolcert"`
}

// Run is what toolcert says of the run beyond the test-result fields.
type Run struct {
	// Version is toolcert's version.
	Version string `json:"version"`
	// Target names the adapter as the reports do (e.g. "process ./adapter").
	Target string `json:"target"`
	// UpstreamVersion is the upstream version the run certified
	// (--upstream-version, or the config file's key); "" when it ran
	// every version of the corpus.
	UpstreamVersion string `json:"upstreamVersion,omitempty"`
	// UpstreamVersions are the upstream versions whose answers the run
	// served: UpstreamVersion alone, or every version the corpus knows.
	UpstreamVersions []string `json:"upstreamVersions"`
	// Timestamp is when the attestation was made, StartedAt when the run
	// started (UTC).
	Timestamp time.Time `json:"timestamp"`
	StartedAt time.Time `json:"startedAt"`
	// Verdict is the run's verdict as its reports give it (passed,
	// failed, interrupted) and Reasons say why, one each.
	Verdict string   `json:"verdict"`
	Reasons []string `json:"reasons"`
	// Counts are the run's counts of scenarios and generated cases, at
	// the level it certifies.
	Counts Counts `json:"counts"`
	// Level is the level the run certifies (docs/protocol.md, "Levels"):
	// Result, the tests, Verdict and Counts are that level's. "" in an
	// attestation written before levels, which certified strict: see
	// [Run.CertifiedLevel].
	Level reports.Level `json:"level,omitempty"`
	// Levels is the run's result and counts at each level, whichever it
	// certifies, the least demanding first; none before levels.
	Levels []LevelResult `json:"levels,omitempty"`
	// Selection is how the run chose its scenarios, when it did.
	Selection Selection `json:"selection"`
}

// Counts are a run's counts. Generated cases run inside scenarios: they
// are counted here, not listed. StrictOnly and CasesStrictOnly count, at
// level safe, what that level does not judge; Marks the generated answers
// that should have been refused and were accepted and shown, apart from
// the Leaks.
type Counts struct {
	Scenarios        int `json:"scenarios"`
	Passed           int `json:"passed"`
	Failed           int `json:"failed"`
	Skipped          int `json:"skipped"`
	NotApplicable    int `json:"notApplicable"`
	StrictOnly       int `json:"strictOnly"`
	ExpectedFailures int `json:"expectedFailures"`
	UnexpectedPasses int `json:"unexpectedPasses"`
	Cases            int `json:"cases"`
	CasesPassed      int `json:"casesPassed"`
	CasesFailed      int `json:"casesFailed"`
	CasesStrictOnly  int `json:"casesStrictOnly"`
	CasesExpected    int `json:"casesExpected"`
	Leaks            int `json:"leaks"`
	Marks            int `json:"marks"`
}

// LevelResult is a run's outcome at one level: PASSED or FAILED as the
// run's verdict at that level says ([reports.Result.VerdictAt]; no
// baseline applies at a level the run does not certify), and at the level
// it certifies the predicate's own result (WARNED too); and the counts of
// its scenarios and cases there.
type LevelResult struct {
	Level  reports.Level `json:"level"`
	Result Result        `json:"result"`
	Counts LevelCounts   `json:"counts"`
}

// LevelCounts count a run's scenarios and generated cases by their status
// at one level.
type LevelCounts struct {
	Scenarios       int `json:"scenarios"`
	Passed          int `json:"passed"`
	Failed          int `json:"failed"`
	Skipped         int `json:"skipped"`
	NotApplicable   int `json:"notApplicable"`
	StrictOnly      int `json:"strictOnly"`
	Cases           int `json:"cases"`
	CasesPassed     int `json:"casesPassed"`
	CasesFailed     int `json:"casesFailed"`
	CasesStrictOnly int `json:"casesStrictOnly"`
}

// CertifiedLevel returns the level the run certifies: its Level, or
// strict for an attestation written before levels.
func (r Run) CertifiedLevel() reports.Level {
	if r.Level == "" {
		return reports.DefaultLevel
	}
	return r.Level
}

// ResultAt returns the predicate's result at level l, and false when it
// says none: its Levels entry; for an attestation written before levels
// (no Levels), its Result when the level it certified covers l (a strict
// certificate certifies safe too).
func (p TestResult) ResultAt(l reports.Level) (Result, bool) {
	for _, lr := range p.Toolcert.Levels {
		if lr.Level == l {
			return lr.Result, true
		}
	}
	if len(p.Toolcert.Levels) == 0 && p.Toolcert.CertifiedLevel().Covers(l) {
		return p.Result, true
	}
	return "", false
}

// Selection is how a run chose its scenarios: a tag expression, a shard,
// one generated case, whether not-applicable scenarios failed. The zero
// Selection is the whole suite.
type Selection struct {
	Tags       string `json:"tags,omitempty"`
	Shard      string `json:"shard,omitempty"`
	Case       string `json:"case,omitempty"`
	RequireAll bool   `json:"requireAll,omitempty"`
}

// Whole reports whether the selection is the whole suite.
func (s Selection) Whole() bool { return s == Selection{} || s == Selection{RequireAll: true} }
