package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// cucumberDoc mirrors the fields cucumber tools require, independently of
// the renderer's own types.
type cucumberDoc []struct {
	URI      string `json:"uri"`
	ID       string `json:"id"`
	Keyword  string `json:"keyword"`
	Name     string `json:"name"`
	Line     *int   `json:"line"`
	Elements []struct {
		ID      string `json:"id"`
		Keyword string `json:"keyword"`
		Type    string `json:"type"`
		Name    string `json:"name"`
		Line    *int   `json:"line"`
		Tags    []struct {
			Name string `json:"name"`
		} `json:"tags"`
		Steps []cucumberDocStep `json:"steps"`
	} `json:"elements"`
}

type cucumberDocStep struct {
	Keyword string `json:"keyword"`
	Name    string `json:"name"`
	Line    *int   `json:"line"`
	Result  struct {
		Status       string `json:"status"`
		Duration     *int64 `json:"duration"`
		ErrorMessage string `json:"error_message"`
	} `json:"result"`
}

// parseCucumber renders r as CucumberJSON and parses it back, checking the
// structure every cucumber tool relies on.
func parseCucumber(tb testing.TB, r *Result) cucumberDoc {
	tb.Helper()
	return parseCucumberForm(tb, CucumberJSON, r)
}

// parseCucumberForm renders r with render, one of the cucumber forms, and
// parses it back, checking the structure every cucumber tool relies on.
func parseCucumberForm(tb testing.TB, render Renderer, r *Result) cucumberDoc {
	tb.Helper()
	var buf bytes.Buffer
	if err := render(&buf, r); err != nil {
		tb.Fatalf("render cucumber: %v", err)
	}
	var doc cucumberDoc
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		tb.Fatalf("cucumber json does not parse: %v\n%s", err, buf.String())
	}
	for _, f := range doc {
		if f.URI == "" || f.ID == "" || f.Keyword != "Feature" || f.Name == "" || f.Line == nil || f.Elements == nil {
			tb.Errorf("feature %q lacks a required field", f.URI)
		}
		for _, e := range f.Elements {
			if e.ID == "" || e.Keyword != "Scenario" || e.Type != "scenario" || e.Line == nil || e.Tags == nil || e.Steps == nil {
				tb.Errorf("element %q lacks a required field", e.ID)
			}
			for _, st := range e.Steps {
				checkCucumberStep(tb, e.ID, st)
			}
		}
	}
	return doc
}

func checkCucumberStep(tb testing.TB, element string, st cucumberDocStep) {
	tb.Helper()
	switch st.Keyword {
	case "Given ", "When ", "Then ", "* ":
	default:
		tb.Errorf("%s: step %q has keyword %q", element, st.Name, st.Keyword)
	}
	switch st.Result.Status {
	case "passed", "failed", "skipped":
	default:
		tb.Errorf("%s: step %q has status %q", element, st.Name, st.Result.Status)
	}
	if st.Line == nil || st.Result.Duration == nil {
		tb.Errorf("%s: step %q lacks line or duration", element, st.Name)
	}
}

// cucumberStatusOf is the status a cucumber tool derives from the steps.
func cucumberStatusOf(steps []cucumberDocStep) string {
	status := "passed"
	for _, st := range steps {
		switch st.Result.Status {
		case "failed":
			return "failed"
		case "skipped":
			status = "skipped"
		}
	}
	return status
}

func TestCucumberJSONParses(t *testing.T) {
	r := sample()
	r.Scenarios[1].Steps[0].Keyword = "Then"
	r.Scenarios[1].Steps[0].Duration = Duration(5 * time.Millisecond)
	doc := parseCucumber(t, r)

	var got []string
	for _, f := range doc {
		for _, e := range f.Elements {
			got = append(got, fmt.Sprintf("%s | %s | %s | %d steps", f.Name, e.Name, cucumberStatusOf(e.Steps), len(e.Steps)))
		}
	}
	want := []string{
		"closed_objects | an extra top-level property is rejected | passed | 1 steps",
		"leaks | a message is never forwarded | failed | 3 steps",
		"leaks | pending | skipped | 1 steps",
		"reject_gates | " + strictOnlyName + " | skipped | 2 steps",
		"request_ids | the audit event carries the request id | skipped | 3 steps",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("features (-want +got):\n%s", diff)
	}
	steps := doc[1].Elements[0].Steps
	if st := steps[0]; st.Keyword != "Then " || *st.Result.Duration != 5_000_000 {
		t.Errorf("step = keyword %q duration %d, want \"Then \" and 5000000 ns", st.Keyword, *st.Result.Duration)
	}
	for _, part := range []string{"canary leaked", "second line", "evidence [leak] canary tcx"} {
		if !strings.Contains(steps[0].Result.ErrorMessage, part) {
			t.Errorf("failing step's error_message lacks %q:\n%s", part, steps[0].Result.ErrorMessage)
		}
	}
	c := steps[2]
	if c.Name != "generated case run_status/failed/nan/attempt" || c.Result.Status != "failed" ||
		!strings.Contains(c.Result.ErrorMessage, "reproduce: toolcert run --case run_status/failed/nan/attempt") ||
		!strings.Contains(c.Result.ErrorMessage, "-failure\n+success") {
		t.Errorf("case step = %+v, want the failed case with its reproducer and diff", c)
	}
}

// cucumberView is one rendered step: keyword, name, status and the first
// line of its message.
type cucumberView struct{ Keyword, Name, Status, Message string }

func TestCucumberJSONSteps(t *testing.T) {
	boom := Step{Keyword: "Then", Text: "nothing leaks", Status: Failed, Error: "boom"}
	ok := Step{Keyword: "Given", Text: "a tool", Status: Passed}
	tests := []struct {
		name string
		why  string
		sc   Scenario
		want []cucumberView
	}{{
		name: "keywords",
		why:  "a step keeps its Gherkin keyword with a trailing space; an unknown one is \"* \"",
		sc: Scenario{Name: "s", Status: Passed, Steps: []Step{ok, {Keyword: "When", Text: "it runs", Status: Passed},
			{Keyword: "Then", Text: "it passes", Status: Passed}, {Text: "untyped", Status: Passed}}},
		want: []cucumberView{{"Given ", "a tool", "passed", ""}, {"When ", "it runs", "passed", ""},
			{"Then ", "it passes", "passed", ""}, {"* ", "untyped", "passed", ""}},
	}, {
		name: "failure after the last step",
		why:  "a leak found after the steps fails no step: a verdict step must fail the scenario",
		sc: Scenario{Name: "s", Status: Failed, Error: "1 canary hit(s)", Steps: []Step{ok},
			Evidence: []Evidence{{Kind: EvidenceLeak, Message: "canary tcx"}}},
		want: []cucumberView{{"Given ", "a tool", "passed", ""}, {"* ", "toolcert verdict", "failed", "1 canary hit(s)"}},
	}, {
		name: "skipped without steps",
		why:  "cucumber tools read a scenario without steps as passed, and a skip is not a pass",
		sc:   Scenario{Name: "s", Status: Skipped},
		want: []cucumberView{{"* ", "toolcert verdict", "skipped", skipIsNoPass}},
	}, {
		name: "not applicable",
		why:  "the step that did not apply is skipped, cucumber's closest status, and says why; the scenario's error is not repeated",
		sc: Scenario{Name: "s", Status: NotApplicable, Error: notApplicablePrefix + "no audit log", Steps: []Step{ok,
			{Keyword: "Then", Text: "the audit log holds the call", Status: NotApplicable, Error: "no audit log"},
			{Keyword: "Then", Text: "it holds its request id", Status: Skipped}}},
		want: []cucumberView{{"Given ", "a tool", "passed", ""}, {"Then ", "the audit log holds the call", "skipped", notApplicablePrefix + "no audit log"},
			{"Then ", "it holds its request id", "skipped", ""}},
	}, {
		name: "not applicable without its step",
		why:  "when no step is marked, a verdict step carries the status and the reason",
		sc:   Scenario{Name: "s", Status: NotApplicable, Error: notApplicablePrefix + "no approvals", Steps: []Step{ok}},
		want: []cucumberView{{"Given ", "a tool", "passed", ""}, {"* ", "toolcert verdict", "skipped", notApplicablePrefix + "no approvals"}},
	}, {
		name: "not applicable without a reason",
		why:  "a step that did not apply says so even when the runner gave no reason",
		sc: Scenario{Name: "s", Status: NotApplicable, Steps: []Step{ok,
			{Keyword: "Then", Text: "the audit log holds the call", Status: NotApplicable}}},
		want: []cucumberView{{"Given ", "a tool", "passed", ""}, {"Then ", "the audit log holds the call", "skipped", "not applicable"}},
	}, {
		name: "expected failure",
		why:  "a failure the baseline lists is skipped with a message that says so",
		sc:   Scenario{Name: "s", Status: Failed, Error: "boom", Steps: []Step{ok, boom}, Baseline: ExpectedFailure},
		want: []cucumberView{{"Given ", "a tool", "passed", ""}, {"Then ", "nothing leaks", "skipped", xfailPrefix + "boom"}},
	}, {
		name: "unexpected pass",
		why:  "a pass the baseline lists as failing fails the scenario until the entry is removed",
		sc:   Scenario{Name: "s", Status: Passed, Steps: []Step{ok}, Baseline: UnexpectedPass},
		want: []cucumberView{{"Given ", "a tool", "passed", ""}, {"* ", "the baseline lists this scenario as failing", "failed", xpassMessage}},
	}, {
		name: "generated cases",
		why:  "each case is a step with its own status, reproducer and baseline mark",
		sc: Scenario{Name: "s", Status: Failed, Error: "boom", Steps: []Step{boom}, Cases: []Case{
			{ID: "a", Status: Passed},
			{ID: "b", Status: Failed, Reproducer: "toolcert run --case b"},
			{ID: "c", Status: Failed, Reproducer: "toolcert run --case c", Baseline: ExpectedFailure},
			{ID: "d", Status: Passed, Baseline: UnexpectedPass},
		}},
		want: []cucumberView{{"Then ", "nothing leaks", "failed", "boom"},
			{"* ", "generated case a", "passed", ""},
			{"* ", "generated case b", "failed", "reproduce: toolcert run --case b"},
			{"* ", "generated case c", "skipped", xfailPrefix + "reproduce: toolcert run --case c"},
			{"* ", "generated case d", "failed", xpassMessage}},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.sc.Feature = "features/steps.feature"
			doc := parseCucumber(t, &Result{Scenarios: []Scenario{tc.sc}})
			var got []cucumberView
			for _, st := range doc[0].Elements[0].Steps {
				got = append(got, cucumberView{st.Keyword, st.Name, st.Result.Status, ctrfFirstLine(st.Result.ErrorMessage)})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nsteps (-want +got):\n%s", tc.why, diff)
			}
		})
	}
}

func TestCucumberJSONElementIDs(t *testing.T) {
	sc := Scenario{Feature: "features/R20 Closed.feature", Name: "Row One", Status: Passed}
	doc := parseCucumber(t, &Result{Scenarios: []Scenario{sc, sc, sc}})
	var got []string
	for _, e := range doc[0].Elements {
		got = append(got, e.ID)
	}
	want := []string{"r20-closed;row-one", "r20-closed;row-one;2", "r20-closed;row-one;3"}
	if diff := cmp.Diff(want, got); diff != "" || doc[0].Name != "R20 Closed" {
		t.Errorf("feature %q, element IDs (-want +got):\n%s", doc[0].Name, diff)
	}
}

func TestCucumberJSONInterrupted(t *testing.T) {
	r := sample()
	r.Summary.Interrupted = true
	doc := parseCucumber(t, r)
	last := doc[len(doc)-1]
	if len(doc) != 5 || last.Name != "toolcert run" || cucumberStatusOf(last.Elements[0].Steps) != "failed" {
		t.Errorf("an interrupted run has no failed \"toolcert run\" feature last: %+v", last)
	}
}

func TestCucumberJSONHostileText(t *testing.T) {
	r := sample()
	r.Scenarios[1].Error += hostile
	r.Scenarios[1].Evidence[0].Message += hostile
	r.Scenarios[1].Cases[1].Evidence[0].Message += hostile
	renderInertJSON(t, "cucumber.json", CucumberJSON, r)
	doc := parseCucumber(t, r)
	msg := doc[1].Elements[0].Steps[0].Result.ErrorMessage
	if strings.Count(msg, hostileBack) != 2 {
		t.Errorf("error_message does not carry the hostile text twice, escaped and back:\n%q", msg)
	}
}

func ExampleCucumberJSON() {
	r := &Result{Scenarios: []Scenario{{
		Feature: "features/r20.feature", Name: "one unexpected property", Status: Passed, Tags: []string{"@r20"}, Line: 4,
		Gherkin: &Gherkin{Keyword: "Scenario", Tags: []Tag{{Name: "@r20", Line: 3}},
			Feature: GherkinFeature{Keyword: "Feature", Name: "R20", Description: "  Unexpected properties are refused.", Line: 1}},
		Steps: []Step{{Keyword: "Then", Text: "the call is refused", Status: Passed, Duration: Duration(time.Millisecond), Line: 5}},
	}}}
	if err := CucumberJSON(os.Stdout, r); err != nil {
		fmt.Println(err)
	}
	// Output:
	// [
	//   {
	//     "uri": "features/r20.feature",
	//     "id": "r20",
	//     "keyword": "Feature",
	//     "name": "R20",
	//     "description": "  Unexpected properties are refused.",
	//     "line": 1,
	//     "tags": [],
	//     "elements": [
	//       {
	//         "id": "r20;one-unexpected-property",
	//         "keyword": "Scenario",
	//         "type": "scenario",
	//         "name": "one unexpected property",
	//         "description": "",
	//         "line": 4,
	//         "tags": [
	//           {
	//             "name": "@r20",
	//             "line": 3
	//           },
	//           {
	//             "name": "@level:strict",
	//             "line": 4
	//           }
	//         ],
	//         "steps": [
	//           {
	//             "keyword": "Then ",
	//             "name": "the call is refused",
	//             "line": 5,
	//             "arguments": [],
	//             "result": {
	//               "status": "passed",
	//               "duration": 1000000
	//             }
	//           }
	//         ]
	//       }
	//     ]
	//   }
	// ]
}
