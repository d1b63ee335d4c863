package attest

import "time"

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
// as toolcert fills it: the result, the run's configuration, the IDs of
// the scenarios that passed, failed as a baseline expected (warned) and
// failed otherwise, and toolcert's own extension field.
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
	// Counts are the run's counts of scenarios and generated cases.
	Counts Counts `json:"counts"`
	// Selection is how the run chose its scenarios, when it did.
	Selection Selection `json:"selection"`
}

// Counts are a run's counts. Generated cases run inside scenarios: they
// are counted here, not listed.
type Counts struct {
	Scenarios        int `json:"scenarios"`
	Passed           int `json:"passed"`
	Failed           int `json:"failed"`
	Skipped          int `json:"skipped"`
	NotApplicable    int `json:"notApplicable"`
	ExpectedFailures int `json:"expectedFailures"`
	UnexpectedPasses int `json:"unexpectedPasses"`
	Cases            int `json:"cases"`
	CasesPassed      int `json:"casesPassed"`
	CasesFailed      int `json:"casesFailed"`
	CasesExpected    int `json:"casesExpected"`
	Leaks            int `json:"leaks"`
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
