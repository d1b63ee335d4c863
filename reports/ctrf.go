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
		ID       string `json:"id"`
		Lane     int    `json:"lane"`
		Baseline string `json:"baseline,omitempty"`
		// Levels is the scenario's status at each level (results.json's).
		Levels   map[Level]Status `json:"levels,omitempty"`
		Evidence []Evidence       `json:"evidence,omitempty"`
	}
	ctrfCaseExtra struct {
		ID         string           `json:"id"`
		Reproducer string           `json:"reproducer"`
		Operator   string           `json:"operator"`
		Tool       string           `json:"tool"`
		Field      string           `json:"field"`
		Kind       string           `json:"kind,omitempty"`
		Baseline   string           `json:"baseline,omitempty"`
		Levels     map[Level]Status `json:"levels,omitempty"`
		Evidence   []Evidence       `json:"evidence,omitempty"`
	}
	ctrfRunExtra struct {
		Seed   uint64 `json:"seed"`
		Target string `json:"target"`
		// Level is the level the run certifies: the tests' statuses are
		// its; Levels counts the scenarios and cases at each level.
		Level             Level          `json:"level"`
		Levels            []LevelSummary `json:"levels,omitempty"`
		Interrupted       bool           `json:"interrupted,omitempty"`
		UpstreamRequests  int            `json:"upstream_requests"`
		Leaks             int            `json:"leaks"`
		Marks             int            `json:"marks"`
		Blocked           int            `json:"blocked"`
		BlockedRequests   int            `json:"blocked_requests"`
		NotApplicable     int            `json:"not_applicable"`
		StrictOnly        int            `json:"strict_only"`
		CasesStrictOnly   int            `json:"cases_strict_only"`
		ExpectedFailures  int            `json:"expected_failures"`
		CasesExpected     int            `json:"cases_expected"`
		UnexpectedPasses  int            `json:"unexpected_passes"`
		TargetRestarts    int            `json:"target_restarts"`
		BaselineUnmatched []string       `json:"baseline_unmatched,omitempty"`
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
		// Levels is the control's state at each level.
		Levels []ControlLevel `json:"levels,omitempty"`
	}
)

// The CTRF test types of toolcert's results.
const (
	ctrfScenarioType = "scenario"
	ctrfCaseType     = "generated-case"
)

// CTRF renders r as a CTRF report at the level it certifies: one test per
// scenario (suite and filePath its feature) and one per generated case,
// named "<scenario> › <case ID>", each with toolcert's fields (IDs, status
// per level, evidence, reproducer) in its extra; a trace lists the
// evidence that counts at that level first. A baseline's expected failure
// is skipped with a message saying so, an unexpected pass failed;
// rawStatus then keeps the model's status. A not-applicable scenario (and
// its step that did not apply) is "other", the status CTRF has for what
// fits none of its own, with rawStatus "not_applicable" and a message that
// starts with "not applicable: " and says why; so is a strict-only
// scenario or case (and a strict-only scenario's failed steps), with
// rawStatus "strict_only" and a message "strict only: level safe does not
// judge it". The summary counts the tests emitted, cases included; the
// run's own counts, level and each level's counts, seed, target and
// interruption are in results.extra. A test's line is its scenario's in
// the feature file, when the model has it. Text passes through [inert].
func CTRF(w io.Writer, r *Result) error {
	r = inertResult(r)
	l := r.CertifiedLevel()
	tests := []ctrfTest{}
	for _, sc := range r.Scenarios {
		tests = append(tests, ctrfScenario(sc, l))
		for _, c := range sc.Cases {
			tests = append(tests, ctrfCase(sc, c, l))
		}
		for _, id := range sc.SkippedCases {
			tests = append(tests, ctrfCase(sc, Case{ID: id, Status: Skipped}, l))
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
	return ctrfRunExtra{Seed: r.Seed, Target: r.Target, Level: r.CertifiedLevel(), Levels: s.Levels, Interrupted: s.Interrupted,
		UpstreamRequests: s.UpstreamRequests, Leaks: s.Leaks, Marks: s.Marks, Blocked: s.Blocked,
		BlockedRequests: s.BlockedRequests, NotApplicable: s.NotApplicable, StrictOnly: s.StrictOnly,
		CasesStrictOnly: s.CasesStrictOnly, ExpectedFailures: s.ExpectedFailures,
		CasesExpected: s.CasesExpected, UnexpectedPasses: s.UnexpectedPasses,
		TargetRestarts: s.TargetRestarts, BaselineUnmatched: r.BaselineUnmatched, Controls: ctrfControls(r.Controls)}
}

// ctrfControls returns the controls for results.extra.
func ctrfControls(controls []ControlResult) []ctrfControl {
	var out []ctrfControl
	for _, cr := range controls {
		out = append(out, ctrfControl{ID: inert(cr.ID), Title: inert(cr.Title), Source: inert(cr.Source),
			Status: cr.Status, Passed: cr.Passed, Failed: cr.Failed, Levels: cr.Levels})
	}
	return out
}

// ctrfScenario renders one scenario as a test at level l: the first line
// of its error as message, the whole error and its evidence as trace.
func ctrfScenario(sc Scenario, l Level) ctrfTest {
	t := ctrfTest{Name: cmp.Or(sc.Name, sc.ID, "unnamed scenario"), Status: ctrfStatus(sc.Status),
		Duration: ctrfMillis(sc.Duration), Suite: ctrfSuite(sc.Feature), Tags: sc.Tags,
		Type: ctrfScenarioType, FilePath: sc.Feature, Line: sc.Line, Steps: ctrfSteps(sc.Steps),
		Trace: joinLines(sc.Error, evidenceTrace(sc.Evidence, l)),
		Extra: ctrfScenarioExtra{ID: sc.ID, Lane: sc.Lane, Baseline: sc.Baseline, Levels: sc.Levels, Evidence: sc.Evidence}}
	switch sc.Status {
	case Passed:
	case Skipped:
		t.Message = skipIsNoPass
	case NotApplicable:
		t.RawStatus = string(NotApplicable)
		t.Message = ctrfFirstLine(notApplicableMessage(sc.Error))
	case StrictOnly:
		t.RawStatus = string(StrictOnly)
		t.Message = strictOnlyText(sc.StatusAt(LevelStrict))
		t.Steps = ctrfStrictOnlySteps(t.Steps)
	default:
		t.Message = cmp.Or(ctrfFirstLine(sc.Error), "scenario failed")
	}
	return ctrfBaselined(t, sc.Baseline)
}

// ctrfCase renders one generated case as a test of its own at level l, its
// reproducer and evidence in the trace when it did not pass.
func ctrfCase(sc Scenario, c Case, l Level) ctrfTest {
	t := ctrfTest{Name: cmp.Or(sc.Name, sc.ID, "unnamed scenario") + " › " + c.ID,
		Status: ctrfStatus(c.Status), Duration: ctrfMillis(c.Duration), Suite: ctrfSuite(sc.Feature),
		Tags: sc.Tags, Type: ctrfCaseType, FilePath: sc.Feature, Line: sc.Line,
		Extra: ctrfCaseExtra{ID: c.ID, Reproducer: c.Reproducer, Operator: c.Operator, Tool: c.Tool,
			Field: c.Field, Kind: c.Kind, Baseline: c.Baseline, Levels: c.Levels, Evidence: c.Evidence}}
	switch c.Status {
	case Passed:
		return ctrfBaselined(t, c.Baseline)
	case StrictOnly:
		t.RawStatus = string(StrictOnly)
		t.Message = strictOnlyText(c.StatusAt(LevelStrict))
	case Skipped:
		t.Message = skippedCaseText
		return t
	default:
		t.Message = "generated case " + t.Status
		if ev := evidenceAt(c.Evidence, l); len(ev) > 0 {
			t.Message = ctrfFirstLine(ev[0].Message)
		}
	}
	t.Trace = joinLines(reproduceLine(c), evidenceTrace(c.Evidence, l))
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

// ctrfStrictOnlySteps returns the steps of a strict-only scenario with
// its failed ones (they failed at level strict, which the run does not
// certify) "other", each saying so in its error.
func ctrfStrictOnlySteps(steps []ctrfStep) []ctrfStep {
	for i, st := range steps {
		if st.Status != string(Failed) {
			continue
		}
		msg := strictOnlyMessage
		if st.Extra != nil {
			msg = joinLines(msg, st.Extra.Error)
		}
		steps[i] = ctrfStep{Name: st.Name, Status: ctrfOther, Extra: &ctrfStepExtra{Error: msg}}
	}
	return steps
}

// ctrfOther is CTRF's status for what fits none of its own.
const ctrfOther = "other"

// ctrfStatus maps a status of the model onto CTRF's: not applicable and
// strict only are "other"; like [Result.Tally], anything else neither
// passed nor skipped is failed.
func ctrfStatus(s Status) string {
	switch s {
	case Passed, Skipped:
		return string(s)
	case NotApplicable, StrictOnly:
		return ctrfOther
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
