// Package reports holds toolcert's canonical result model and renders it.
//
// Every report format (results.json, junit.xml, and the formats to come) is
// a renderer of one Result: formats never compute results of their own.
package reports

import "time"

// Status is the outcome of one scenario.
type Status string

// The statuses a scenario can end with. A skipped scenario is not a pass.
const (
	Passed  Status = "passed"
	Failed  Status = "failed"
	Skipped Status = "skipped"
)

// Result is one whole toolcert run.
type Result struct {
	Tool      string     `json:"tool"`
	Version   string     `json:"version"`
	Seed      uint64     `json:"seed"`
	Target    string     `json:"target"`
	StartedAt time.Time  `json:"started_at"`
	Duration  Duration   `json:"duration"`
	Summary   Summary    `json:"summary"`
	Scenarios []Scenario `json:"scenarios"`
}

// Summary counts the scenarios of a run by status.
type Summary struct {
	Scenarios int `json:"scenarios"`
	Passed    int `json:"passed"`
	Failed    int `json:"failed"`
	Skipped   int `json:"skipped"`
	// UpstreamRequests counts every request the mock upstreams received.
	UpstreamRequests int `json:"upstream_requests"`
	// Leaks counts the canary hits found in agent-visible output.
	Leaks int `json:"leaks"`
}

// Scenario is the result of one scenario, with the evidence that decided it.
type Scenario struct {
	ID       string     `json:"id"`
	Feature  string     `json:"feature"`
	Name     string     `json:"name"`
	Tags     []string   `json:"tags,omitempty"`
	Status   Status     `json:"status"`
	Duration Duration   `json:"duration"`
	Lane     int        `json:"lane"`
	Error    string     `json:"error,omitempty"`
	Steps    []Step     `json:"steps"`
	Evidence []Evidence `json:"evidence,omitempty"`
}

// Step is one executed step of a scenario.
type Step struct {
	Text   string `json:"text"`
	Status Status `json:"status"`
	Error  string `json:"error,omitempty"`
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
}

// Tally recomputes the summary counts from the scenarios.
func (r *Result) Tally() {
	s := Summary{UpstreamRequests: r.Summary.UpstreamRequests}
	for _, sc := range r.Scenarios {
		s.Scenarios++
		switch sc.Status {
		case Passed:
			s.Passed++
		case Skipped:
			s.Skipped++
		default:
			s.Failed++
		}
		for _, e := range sc.Evidence {
			if e.Kind == EvidenceLeak {
				s.Leaks++
			}
		}
	}
	r.Summary = s
}

// The evidence kinds the harness records.
const (
	EvidenceLeak     = "leak"
	EvidenceMismatch = "mismatch"
	EvidenceAudit    = "audit"
	EvidenceJournal  = "journal"
	EvidenceTarget   = "target"
)
