package reports

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// The Common Test Report Format (https://ctrf.io), specVersion 0.0.0. Its
// schema allows no property outside the ones it names but in "extra"
// objects: toolcert's own fields live there.
type (
	ctrfReport struct {
		ReportFormat string      `json:"reportFormat"`
		SpecVersion  string      `json:"specVersion"`
		Results      ctrfResults `json:"results"`
	}
	ctrfResults struct {
		Tool        ctrfTool         `json:"tool"`
		Summary     ctrfSummary      `json:"summary"`
		Tests       []ctrfTest       `json:"tests"`
		Environment *ctrfEnvironment `json:"environment,omitempty"`
		Extra       ctrfRunExtra     `json:"extra"`
	}
	ctrfTool struct {
		Name    string `json:"name"`
		Version string `json:"version,omitempty"`
	}
	ctrfSummary struct {
		Tests    int   `json:"tests"`
		Passed   int   `json:"passed"`
		Failed   int   `json:"failed"`
		Pending  int   `json:"pending"`
		Skipped  int   `json:"skipped"`
		Other    int   `json:"other"`
		Start    int64 `json:"start"` // milliseconds since the epoch
		Stop     int64 `json:"stop"`
		Duration int64 `json:"duration"` // milliseconds
	}
	ctrfTest struct {
		Name      string     `json:"name"`
		Status    string     `json:"status"`
		Duration  int64      `json:"duration"` // milliseconds
		Suite     []string   `json:"suite,omitempty"`
		Message   string     `json:"message,omitempty"`
		Trace     string     `json:"trace,omitempty"`
		RawStatus string     `json:"rawStatus,omitempty"`
		Tags      []string   `json:"tags,omitempty"`
		Type      string     `json:"type"`
		FilePath  string     `json:"filePath,omitempty"`
		Line      int        `json:"line,omitempty"` // of the scenario in its feature file
		Steps     []ctrfStep `json:"steps,omitempty"`
		Extra     any        `json:"extra"`
	}
	ctrfStep struct {
		Name   string         `json:"name"`
		Status string         `json:"status"`
		Extra  *ctrfStepExtra `json:"extra,omitempty"`
	}
	ctrfStepExtra struct {
		Error string `json:"error"`
	}
	ctrfEnvironment struct {
		AppName string `json:"appName"`
	}
	ctrfScenarioExtra struct {
		ID       string     `json:"id"`
		Lane     int        `json:"lane"`
		Baseline string     `json:"baseline,omitempty"`
		Evidence []Evidence `json:"evidence,omitempty"`
	}
	ctrfCaseExtra struct {
		ID         string     `json:"id"`
		Reproducer string     `json:"reproducer"`
		Operator   string     `json:"operator"`
		Tool       string     `json:"tool"`
		Field      string     `json:"field"`
		Baseline   string     `json:"baseline,omitempty"`
		Evidence   []Evidence `json:"evidence,omitempty"`
	}
	ctrfRunExtra struct {
		Seed              uint64   `json:"seed"`
		Target            string   `json:"target"`
		Interrupted       bool     `json:"interrupted,omitempty"`
		UpstreamRequests  int      `json:"upstream_requests"`
		Leaks             int      `json:"leaks"`
		Blocked           int      `json:"blocked"`
		BlockedRequests   int      `json:"blocked_requests"`
		NotApplicable     int      `json:"not_applicable"`
		ExpectedFailures  int      `json:"expected_failures"`
		CasesExpected     int      `json:"cases_expected"`
		UnexpectedPasses  int      `json:"unexpected_passes"`
		TargetRestarts    int      `json:"target_restarts"`
		BaselineUnmatched []string `json:"baseline_unmatched,omitempty"`
		// Controls are the run's controls by state (docs/controls.md).
		Controls []ctrfControl `json:"controls,omitempty"`
	}
	ctrfControl struct {
		ID     string `json:"id"`
		Title  string `json:"title"`
		Source string `json:"source"`
		Status string `json:"status"`
		Passed int    `json:"passed"`
		Failed int    `json:"failed"`
	}
)

// The CTRF test types of toolcert's results.
const (
	ctrfScenarioType = "scenario"
	ctrfCaseType     = "generated-case"
)

// CTRF renders r as a CTRF report: one test per scenario (suite and
// filePath its feature) and one per generated case, named "<scenario> ›
// <case ID>", each with toolcert's fields (IDs, evidence, reproducer) in its
// extra. A baseline's expected failure is skipped with a message saying so,
// an unexpected pass failed; rawStatus then keeps the model's status. A
// not-applicable scenario (and its step that did not apply) is "other", the
// status CTRF has for what fits none of its own, with rawStatus
// "not_applicable" and a message that starts with "not applicable: " and
// says why. The summary counts the tests emitted, cases included; the run's
// own counts, seed, target and interruption are in results.extra. A test's
// line is its scenario's in the feature file, when the model has it. Text
// passes through [inert].
func CTRF(w io.Writer, r *Result) error {
	r = inertResult(r)
	tests := []ctrfTest{}
	for _, sc := range r.Scenarios {
		tests = append(tests, ctrfScenario(sc))
		for _, c := range sc.Cases {
			tests = append(tests, ctrfCase(sc, c))
		}
	}
	report := ctrfReport{ReportFormat: "CTRF", SpecVersion: "0.0.0", Results: ctrfResults{
		Tool:    ctrfTool{Name: cmp.Or(r.Tool, "toolcert"), Version: r.Version},
		Summary: ctrfSummaryOf(r, tests),
		Tests:   tests,
		Extra:   ctrfRunExtraOf(r),
	}}
	if r.Target != "" {
		report.Results.Environment = &ctrfEnvironment{AppName: r.Target}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(report); err != nil {
		return fmt.Errorf("encode ctrf: %w", err)
	}
	return nil
}

// ctrfSummaryOf counts tests by status and times the run; a run without a
// start time starts at 0.
func ctrfSummaryOf(r *Result, tests []ctrfTest) ctrfSummary {
	s := ctrfSummary{Tests: len(tests), Duration: ctrfMillis(r.Duration)}
	if !r.StartedAt.IsZero() {
		s.Start = r.StartedAt.UnixMilli()
	}
	s.Stop = s.Start + s.Duration
	for _, t := range tests {
		switch t.Status {
		case "passed":
			s.Passed++
		case "failed":
			s.Failed++
		case "skipped":
			s.Skipped++
		case "pending":
			s.Pending++
		default:
			s.Other++
		}
	}
	return s
}

func ctrfRunExtraOf(r *Result) ctrfRunExtra {
	s := r.Summary
	return ctrfRunExtra{Seed: r.Seed, Target: r.Target, Interrupted: s.Interrupted,
		UpstreamRequests: s.UpstreamRequests, Leaks: s.Leaks, Blocked: s.Blocked,
		BlockedRequests: s.BlockedRequests, NotApplicable: s.NotApplicable, ExpectedFailures: s.ExpectedFailures,
		CasesExpected: s.CasesExpected, UnexpectedPasses: s.UnexpectedPasses,
		TargetRestarts: s.TargetRestarts, BaselineUnmatched: r.BaselineUnmatched, Controls: ctrfControls(r.Controls)}
}

// ctrfControls returns the controls for results.extra.
func ctrfControls(controls []ControlResult) []ctrfControl {
	var out []ctrfControl
	for _, cr := range controls {
		out = append(out, ctrfControl{ID: inert(cr.ID), Title: inert(cr.Title), Source: inert(cr.Source),
			Status: cr.Status, Passed: cr.Passed, Failed: cr.Failed})
	}
	return out
}

// ctrfScenario renders one scenario as a test: the first line of its error
// as message, the whole error and its evidence as trace.
func ctrfScenario(sc Scenario) ctrfTest {
	t := ctrfTest{Name: cmp.Or(sc.Name, sc.ID, "unnamed scenario"), Status: ctrfStatus(sc.Status),
		Duration: ctrfMillis(sc.Duration), Suite: ctrfSuite(sc.Feature), Tags: sc.Tags,
		Type: ctrfScenarioType, FilePath: sc.Feature, Line: sc.Line, Steps: ctrfSteps(sc.Steps),
		Trace: joinLines(sc.Error, evidenceTrace(sc.Evidence)),
		Extra: ctrfScenarioExtra{ID: sc.ID, Lane: sc.Lane, Baseline: sc.Baseline, Evidence: sc.Evidence}}
	switch sc.Status {
	case Passed:
	case Skipped:
		t.Message = skipIsNoPass
	case NotApplicable:
		t.RawStatus = string(NotApplicable)
		t.Message = ctrfFirstLine(notApplicableMessage(sc.Error))
	default:
		t.Message = cmp.Or(ctrfFirstLine(sc.Error), "scenario failed")
	}
	return ctrfBaselined(t, sc.Baseline)
}

// ctrfCase renders one generated case as a test of its own, its reproducer
// and evidence in the trace when it did not pass.
func ctrfCase(sc Scenario, c Case) ctrfTest {
	t := ctrfTest{Name: cmp.Or(sc.Name, sc.ID, "unnamed scenario") + " › " + c.ID,
		Status: ctrfStatus(c.Status), Duration: ctrfMillis(c.Duration), Suite: ctrfSuite(sc.Feature),
		Tags: sc.Tags, Type: ctrfCaseType, FilePath: sc.Feature, Line: sc.Line,
		Extra: ctrfCaseExtra{ID: c.ID, Reproducer: c.Reproducer, Operator: c.Operator, Tool: c.Tool,
			Field: c.Field, Baseline: c.Baseline, Evidence: c.Evidence}}
	if c.Status != Passed {
		t.Message = "generated case " + t.Status
		if len(c.Evidence) > 0 {
			t.Message = ctrfFirstLine(c.Evidence[0].Message)
		}
		t.Trace = joinLines(reproduceLine(c), evidenceTrace(c.Evidence))
	}
	return ctrfBaselined(t, c.Baseline)
}

// ctrfBaselined turns t into what a baseline mark says, keeping the model's
// status in rawStatus: an expected failure is skipped, an unexpected pass
// fails.
func ctrfBaselined(t ctrfTest, mark string) ctrfTest {
	switch {
	case mark == ExpectedFailure && t.Status == "failed":
		t.RawStatus, t.Status = t.Status, "skipped"
		t.Message = xfailPrefix + t.Message
	case mark == UnexpectedPass:
		t.RawStatus, t.Status = t.Status, "failed"
		t.Message = xpassMessage
	}
	return t
}

// ctrfSteps renders a scenario's steps, "<Keyword> <text>", each with its
// error in its extra. A CTRF step has no rawStatus: a not-applicable step's
// error says that it does not apply.
func ctrfSteps(steps []Step) []ctrfStep {
	var out []ctrfStep
	for _, st := range steps {
		s := ctrfStep{Name: st.Text, Status: ctrfStatus(st.Status)}
		if st.Keyword != "" {
			s.Name = st.Keyword + " " + st.Text
		}
		switch {
		case st.Status == NotApplicable:
			s.Extra = &ctrfStepExtra{Error: notApplicableMessage(st.Error)}
		case st.Error != "":
			s.Extra = &ctrfStepExtra{Error: st.Error}
		}
		out = append(out, s)
	}
	return out
}

// ctrfStatus maps a status of the model onto CTRF's: not applicable is
// "other"; like [Result.Tally], anything else neither passed nor skipped is
// failed.
func ctrfStatus(s Status) string {
	switch s {
	case Passed, Skipped:
		return string(s)
	case NotApplicable:
		return "other"
	}
	return string(Failed)
}

// ctrfSuite is the suite path of a feature: the feature alone, or none.
func ctrfSuite(feature string) []string {
	if feature == "" {
		return nil
	}
	return []string{feature}
}

func ctrfMillis(d Duration) int64 { return time.Duration(d).Milliseconds() }

func ctrfFirstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
