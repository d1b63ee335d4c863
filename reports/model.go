// Package reports holds toolcert's canonical result model and renders it.
//
// Every report format (results.json, junit.xml, and the formats to come) is
// a renderer of one Result: formats never compute results of their own.
package reports

import "time"

// Status is the outcome of one scenario, step or generated case.
type Status string

// The statuses a scenario can end with. A skipped scenario is not a pass.
// A scenario is NotApplicable when one of its steps needs a capability the
// target lacks (an audit log, a policy with sessions and grants,
// approvals): that step is NotApplicable, the steps after it Skipped, and
// the scenario's Error says why ("not applicable: <reason>"). It is
// neither a pass nor a failure: the summary counts it apart, and it does
// not fail the run. A scenario with a failed step is Failed, never
// NotApplicable; generated cases are never NotApplicable. At level safe a
// scenario or case may also be [StrictOnly].
const (
	Passed        Status = "passed"
	Failed        Status = "failed"
	Skipped       Status = "skipped"
	NotApplicable Status = "not_applicable"
)

// Result is one whole toolcert run.
type Result struct {
	Tool      string    `json:"tool"`
	Version   string    `json:"version"`
	Seed      uint64    `json:"seed"`
	Target    string    `json:"target"`
	StartedAt time.Time `json:"started_at"`
	// Shard is "K/N" when the run was shard K of N (see `toolcert merge`).
	Shard string `json:"shard,omitempty"`
	// Level is the level the run certifies (see [Level]): every Status,
	// the summary's counts and the verdict follow it. "" in a result
	// written before levels, which certified protocol v1: see
	// [Result.CertifiedLevel].
	Level     Level      `json:"level,omitempty"`
	Duration  Duration   `json:"duration"`
	Summary   Summary    `json:"summary"`
	Scenarios []Scenario `json:"scenarios"`
	// Coverage is the hostile-space matrix: operators x tools x fields,
	// each cell passed, failed or not exercised.
	Coverage []Cell `json:"coverage,omitempty"`
	// BaselineUnmatched lists the IDs of the run's baseline that matched no
	// scenario or case that finished (a filtered run may not reach them).
	BaselineUnmatched []string `json:"baseline_unmatched,omitempty"`
	// Controls are the states of the controls of the corpus's catalogue
	// (evidenced, violated, not exercised; see [Catalogue.Evaluate]).
	Controls []ControlResult `json:"controls,omitempty"`
}

// Summary counts the scenarios of a run by status.
type Summary struct {
	Scenarios int `json:"scenarios"`
	Passed    int `json:"passed"`
	Failed    int `json:"failed"`
	Skipped   int `json:"skipped"`
	// NotApplicable counts the scenarios that needed a capability the
	// target lacks: not passes, not skips, and no reason to fail the run.
	NotApplicable int `json:"not_applicable"`
	// UpstreamRequests counts every request the mock upstreams received.
	UpstreamRequests int `json:"upstream_requests"`
	// Leaks counts the canary hits found in agent-visible output, of the
	// evidence that counts at the level the run certifies.
	Leaks int `json:"leaks"`
	// Blocked counts the scenarios whose calls were denied, refused,
	// expired or malformed and which asserted that nothing reached the
	// upstream; BlockedRequests counts the upstream requests those
	// scenarios saw anyway (0 for a passing adapter).
	Blocked         int `json:"blocked"`
	BlockedRequests int `json:"blocked_requests"`
	// Cases counts the generated variants run inside scenarios, and how
	// many of them passed and failed.
	Cases       int `json:"cases"`
	CasesPassed int `json:"cases_passed"`
	CasesFailed int `json:"cases_failed"`
	// CasesSkipped counts the generated variants no step ran because a
	// step before it failed (Scenario.SkippedCases); Cases does not count
	// them.
	CasesSkipped int `json:"cases_skipped,omitempty"`
	// CasesStrictOnly counts, in a run that certifies level safe, the
	// cases that level does not judge (a reject of the corpus that may
	// be read past).
	CasesStrictOnly int `json:"cases_strict_only,omitempty"`
	// Interrupted is set when the run was stopped (a signal, a CI
	// cancel) before every scenario ran: the scenarios that did not run
	// are skipped, and the run is not a pass.
	Interrupted bool `json:"interrupted,omitempty"`
	// ExpectedFailures counts the failed scenarios a baseline lists, and
	// CasesExpected the failed generated cases it lists; UnexpectedPasses
	// counts the scenarios and cases a baseline lists that passed. See
	// [Baseline].
	ExpectedFailures int `json:"expected_failures,omitempty"`
	CasesExpected    int `json:"cases_expected,omitempty"`
	UnexpectedPasses int `json:"unexpected_passes,omitempty"`
	// TargetRestarts counts the target instances the harness started again
	// because the adapter had died (exited or stopped answering /healthz)
	// during an earlier scenario or generated case.
	TargetRestarts int `json:"target_restarts,omitempty"`
	// CaseTime splits the generated cases' time between the calls and
	// the harness's work; nil when no step of generated variants ran.
	CaseTime *CaseTime `json:"case_time,omitempty"`
	// StrictOnly counts, in a run that certifies level safe, the
	// scenarios tagged @strict, which that level does not judge.
	StrictOnly int `json:"strict_only,omitempty"`
	// Marks counts the generated cases whose mark reached the agent: an
	// answer that should have been refused was accepted and shown. Apart
	// from Leaks, which count what reached the agent of a refused one.
	Marks int `json:"marks,omitempty"`
	// Levels counts the scenarios and cases by their status at each level
	// (safe, strict), whichever the run certifies.
	Levels []LevelSummary `json:"levels,omitempty"`
}

// Scenario is the result of one scenario, with the evidence that decided it.
type Scenario struct {
	ID      string   `json:"id"`
	Feature string   `json:"feature"`
	Name    string   `json:"name"`
	Tags    []string `json:"tags,omitempty"`
	Status  Status   `json:"status"`
	// Levels is the scenario's status at each level; Status is the one
	// of the level the run certifies.
	Levels   map[Level]Status `json:"levels,omitempty"`
	Duration Duration         `json:"duration"`
	Lane     int              `json:"lane"`
	Error    string           `json:"error,omitempty"`
	Steps    []Step           `json:"steps"`
	Evidence []Evidence       `json:"evidence,omitempty"`
	// Cases are the generated variants a step ran, each with its own
	// status and evidence.
	Cases []Case `json:"cases,omitempty"`
	// SkippedCases are the IDs of the generated variants that steps after
	// a failed one would have run: skipped, neither passed nor failed.
	SkippedCases []string `json:"skipped_cases,omitempty"`
	// Saw is what the agent saw of the scenario's last call, and Requests
	// the upstream requests of the scenario (its own calls'), as a Case
	// keeps them; kept for a scenario that failed at some level.
	Saw      []Part    `json:"saw,omitempty"`
	Requests []Request `json:"requests,omitempty"`
	// TargetOutput is what the target printed during the scenario (its
	// standard error, an in-process adapter's log), as far as its kept
	// tail holds it; kept for a scenario that failed at some level.
	TargetOutput string `json:"target_output,omitempty"`
	// Baseline is ExpectedFailure or UnexpectedPass when a baseline lists
	// the scenario (see [Baseline.Apply]), "" otherwise.
	Baseline string `json:"baseline,omitempty"`
	// Line is the 1-based line of the scenario's "Scenario:" keyword (or
	// "Scenario Outline:", "Example:") in its feature file; 0 when unknown.
	Line int `json:"line,omitempty"`
	// Gherkin is what the feature file says around the scenario beyond its
	// name, tags and steps, for the formats that show it (cucumber JSON);
	// nil when unknown (a hand-built result, or an older results.json).
	Gherkin *Gherkin `json:"gherkin,omitempty"`
}

// Gherkin is what a feature file says around one scenario: its keyword,
// description and tags with their lines, and its feature.
type Gherkin struct {
	// Keyword is the scenario's keyword as written ("Scenario",
	// "Scenario Outline", "Example").
	Keyword     string `json:"keyword,omitempty"`
	Description string `json:"description,omitempty"`
	// Row is the 1-based line of the example row an outline's scenario
	// was made from; 0 for a plain scenario.
	Row int `json:"row,omitempty"`
	// Tags are the scenario's tags, inherited ones included, in the order
	// of [Scenario.Tags], each with the line it is written on.
	Tags    []Tag          `json:"tags,omitempty"`
	Feature GherkinFeature `json:"feature"`
}

// GherkinFeature is the feature a scenario belongs to, as its file writes
// it: keyword, title, description, the line of its keyword, and its tags.
type GherkinFeature struct {
	Keyword     string `json:"keyword,omitempty"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Line        int    `json:"line"`
	Tags        []Tag  `json:"tags,omitempty"`
}

// Tag is one Gherkin tag ("@slow") and the 1-based line it is written on.
type Tag struct {
	Name string `json:"name"`
	Line int    `json:"line"`
	// Column is the 1-based column of the tag's "@", recorded for a
	// feature's tags (cucumber-jvm's JSON places them); 0 when unknown.
	Column int `json:"column,omitempty"`
}

// Case is one generated variant run inside a scenario.
type Case struct {
	ID       string `json:"id"`
	Tool     string `json:"tool"`
	Operator string `json:"operator"`
	Field    string `json:"field"`
	// Kind is the generated answer's kind (docs/protocol.md, "Levels"):
	// equivalent, must_refuse or ignorable.
	Kind   string `json:"kind,omitempty"`
	Status Status `json:"status"`
	// Levels is the case's verdict at each level; Status is the one of
	// the level the run certifies.
	Levels   map[Level]Status `json:"levels,omitempty"`
	Duration Duration         `json:"duration"`
	Evidence []Evidence       `json:"evidence,omitempty"`
	// Reproducer is a one-line command that runs this case alone.
	Reproducer string `json:"reproducer"`
	// Saw is what the agent saw of the case's call, part by part, each
	// clipped at MaxSawBytes; kept for a case that failed at some level.
	Saw []Part `json:"saw,omitempty"`
	// Requests are the upstream requests of the case, in order; kept for
	// a case that failed at some level, or asked a route nobody
	// programmed.
	Requests []Request `json:"requests,omitempty"`
	// TargetOutput is what the target printed while the case ran, as far
	// as its kept tail holds it; kept for a case that failed at some
	// level. Lanes run cases in parallel: it is the output of the lane's
	// own target only.
	TargetOutput string `json:"target_output,omitempty"`
	// Baseline is ExpectedFailure or UnexpectedPass when a baseline lists
	// the case, "" otherwise.
	Baseline string `json:"baseline,omitempty"`
}

// Cell is one cell of the coverage matrix.
type Cell struct {
	Operator string `json:"operator"`
	Tool     string `json:"tool"`
	Field    string `json:"field"`
	Status   string `json:"status"` // passed, failed or not_exercised
	Cases    int    `json:"cases"`
	Passed   int    `json:"passed"`
}

// The statuses of a coverage cell.
const (
	CellPassed       = "passed"
	CellFailed       = "failed"
	CellNotExercised = "not_exercised"
)

// Step is one executed step of a scenario.
type Step struct {
	// Keyword is the step's Gherkin kind: Given, When or Then ("And" and
	// "But" take the kind of the step before them); "" when unknown.
	Keyword  string   `json:"keyword,omitempty"`
	Text     string   `json:"text"`
	Status   Status   `json:"status"`
	Duration Duration `json:"duration,omitempty"`
	Error    string   `json:"error,omitempty"`
	// Line is the 1-based line of the step in its feature file (in the
	// Background for a background step); 0 when unknown.
	Line int `json:"line,omitempty"`
}

// Evidence is one fact a scenario recorded: a leak, a mismatch, an audit or
// journal finding. Kind says which; the other fields are filled as they apply.
type Evidence struct {
	Kind     string `json:"kind"`
	Message  string `json:"message"`
	Canary   string `json:"canary,omitempty"`
	Planted  string `json:"planted,omitempty"`
	Surfaced string `json:"surfaced,omitempty"`
	Encoding string `json:"encoding,omitempty"`
	Diff     string `json:"diff,omitempty"`
	// Level is the one level whose verdict the evidence is about; "" for
	// evidence that counts at every level (a leak, a crash).
	Level Level `json:"level,omitempty"`
}

// Tally recomputes the summary counts from the scenarios.
func (r *Result) Tally() {
	s := Summary{UpstreamRequests: r.Summary.UpstreamRequests, Blocked: r.Summary.Blocked, BlockedRequests: r.Summary.BlockedRequests,
		Interrupted: r.Summary.Interrupted, TargetRestarts: r.Summary.TargetRestarts, CaseTime: r.Summary.CaseTime}
	for _, sc := range r.Scenarios {
		s.Scenarios++
		switch sc.Status {
		case Passed:
			s.Passed++
		case Skipped:
			s.Skipped++
		case NotApplicable:
			s.NotApplicable++
		case StrictOnly:
			s.StrictOnly++
		default:
			s.Failed++
		}
		s.Leaks += r.count(sc.Evidence, EvidenceLeak)
		s.count(sc.Baseline, &s.ExpectedFailures)
		s.CasesSkipped += len(sc.SkippedCases)
		for _, c := range sc.Cases {
			s.Cases++
			switch c.Status {
			case Passed:
				s.CasesPassed++
			case StrictOnly:
				s.CasesStrictOnly++
			default:
				s.CasesFailed++
			}
			s.Leaks += r.count(c.Evidence, EvidenceLeak)
			s.Marks += r.count(c.Evidence, EvidenceMark)
			s.count(c.Baseline, &s.CasesExpected)
		}
	}
	r.tallyLevels(&s)
	r.Summary = s
}

// count adds a baseline mark to the summary: an expected failure to
// *expected, an unexpected pass to UnexpectedPasses.
func (s *Summary) count(mark string, expected *int) {
	switch mark {
	case ExpectedFailure:
		*expected++
	case UnexpectedPass:
		s.UnexpectedPasses++
	}
}

// count returns how many of ev are of kind and count at the level r
// certifies.
func (r *Result) count(ev []Evidence, kind string) int {
	n := 0
	for _, e := range ev {
		if e.Kind == kind && e.CountsAt(r.CertifiedLevel()) {
			n++
		}
	}
	return n
}

// CertifiedLevel returns the level r certifies: its Level, or the
// protocol's (strict) for a result written before levels.
func (r *Result) CertifiedLevel() Level {
	if r.Level == "" {
		return DefaultLevel
	}
	return r.Level
}

// The evidence kinds the harness records.
const (
	EvidenceLeak     = "leak"
	EvidenceMismatch = "mismatch"
	EvidenceAudit    = "audit"
	EvidenceJournal  = "journal"
	EvidenceTarget   = "target"
	// EvidenceMark is the generator's mark seen by the agent of a call
	// that succeeded: the answer was accepted (see variant.Variant.Mark).
	EvidenceMark = "mark"
	// EvidenceBaseline is a difference between what the agent saw and
	// what it saw for the honest answer (the baseline).
	EvidenceBaseline = "baseline"
	// EvidenceNote is a fact for the reader that fails nothing by itself:
	// the requests a target made to routes nobody programmed, say.
	EvidenceNote = "note"
)

// Failing returns the evidence of ev that is about a failure: all of it
// but notes (EvidenceNote).
func Failing(ev []Evidence) []Evidence {
	var out []Evidence
	for _, e := range ev {
		if e.Kind != EvidenceNote {
			out = append(out, e)
		}
	}
	return out
}

// Part is one agent-visible part of a call (docs/protocol.md, "The
// agent's side"; "What the agent sees of an MCP tool call").
type Part struct {
	// Where names the part: "body", "header Content-Type",
	// "structuredContent", "content[0] text", "JSON-RPC error".
	Where string `json:"where"`
	// Text is the part's bytes as text, invalid UTF-8 replaced, clipped
	// at MaxSawBytes; Clipped counts the bytes left out.
	Text    string `json:"text"`
	Clipped int    `json:"clipped,omitempty"`
}

// MaxSawBytes bounds each part of Case.Saw.
const MaxSawBytes = 64 << 10

// Request is one upstream request of a case, as the mock answered it.
type Request struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	// Status is what the mock sent (0: nothing, the connection was reset
	// or closed); Route, the programmed route that answered ("side GET
	// /api" for a side route, "*" for the fallback), "" for a route
	// nobody programmed (answered 501).
	Status int    `json:"status"`
	Route  string `json:"route,omitempty"`
	// AfterMS is when the request was read, in milliseconds after the
	// case began.
	AfterMS int64 `json:"after_ms"`
}
