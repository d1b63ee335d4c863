package reports

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// naMessage is what every format says of sample()'s not-applicable
// scenario: the runner's error, reason included.
const naMessage = notApplicablePrefix + naReason

// TestNotApplicableRendered checks how each format shows the
// not-applicable scenario of sample(): apart from passes, skips and
// failures, by name, with its reason, in the status the format's schema
// comes closest with. Each case renders a view of that one scenario.
func TestNotApplicableRendered(t *testing.T) {
	tests := []struct {
		name string
		why  string
		view func(tb testing.TB, r *Result) []string
		want []string
	}{{
		name: "json",
		why:  "results.json carries the status of the scenario and of its step, and the count; LoadResult reads them back",
		view: naJSON,
		want: []string{"scenario not_applicable: " + naMessage, "steps passed not_applicable skipped", "summary not_applicable 1"},
	}, {
		name: "junit",
		why:  "JUnit has no such status: a skipped testcase whose message starts with \"not applicable: \"",
		view: naJUnit,
		want: []string{"skipped: " + naMessage, "failure: none"},
	}, {
		name: "cucumber",
		why:  "the step that did not apply is skipped, the closest status cucumber has, with the reason as its error_message",
		view: naCucumber,
		want: []string{"passed", "skipped " + naMessage, "skipped"},
	}, {
		name: "cucumber-jvm",
		why:  "as in the cucumber-js form: cucumber-jvm's statuses have no not applicable either",
		view: naCucumberJVM,
		want: []string{"passed", "skipped " + naMessage, "skipped"},
	}, {
		name: "ctrf",
		why:  "CTRF's \"other\", rawStatus keeping the model's status, the reason as message; the step is other too (the summary's other counts the strict-only scenario too)",
		view: naCTRF,
		want: []string{"other | not_applicable | " + naMessage, "steps passed other skipped", "step error " + naMessage,
			"summary other 2", "extra not_applicable 1"},
	}, {
		name: "sarif",
		why:  "a result of kind notApplicable and level none saying why, and the count in the run's summary",
		view: naSARIF,
		want: []string{"toolcert/not-applicable notApplicable none: Scenario \"the audit event carries the request id\" is not applicable to the target: " + naReason,
			"summary not_applicable 1"},
	}, {
		name: "markdown",
		why:  "a summary row, a section listing the scenario with its reason, and no place among the failures",
		view: naMarkdown,
		want: []string{"| Scenarios not applicable (neither passed nor failed) | 1 |",
			"- **the audit event carries the request id** (`features/request_ids.feature`): " + naReason,
			"- ➖ NOT APPLICABLE: the audit event carries the request id (features/request\\_ids.feature)",
			"failures: 2"},
	}, {
		name: "html",
		why:  "a count in the summary, a section listing the scenario with its reason, its own badge",
		view: naHTML,
		want: []string{"<tr><th>Not applicable</th><td class=\"n\">1</td>",
			"<li><strong>the audit event carries the request id</strong> <span class=\"meta\">features/request_ids.feature</span>: <span class=\"msg\">" + naReason + "</span></li>",
			"<span class=\"badge na\">not applicable</span> the audit event carries the request id"},
	}, {
		name: "text",
		why:  "the summary lists the scenario apart with its reason and counts it in the last line",
		view: naText,
		want: []string{"1 scenarios not applicable to the target (neither passed nor failed):",
			"  features/request_ids.feature: the audit event carries the request id", "      " + naReason,
			"5 scenarios: 1 passed, 1 failed, 1 skipped, 1 not applicable, 1 strict only; 1 canary leaks; 1 marks (accepted answers shown to the agent); 0 upstream requests; 1.5s"},
	}, {
		name: "progress",
		why:  "the progress line marks it N/A and says why on the next line",
		view: naProgress,
		want: []string{"N/A  features/request_ids.feature: the audit event carries the request id (10ms)", "     " + naMessage},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.view(t, sample())); diff != "" {
				t.Errorf("%s\n(-want +got):\n%s", tt.why, diff)
			}
		})
	}
}

// naScenario returns the index of sample()'s not-applicable scenario in r.
func naScenario(tb testing.TB, r *Result) int {
	tb.Helper()
	for i, sc := range r.Scenarios {
		if sc.ID == naID {
			return i
		}
	}
	tb.Fatalf("no scenario %s", naID)
	return -1
}

func naJSON(tb testing.TB, r *Result) []string {
	paths, err := Write(tb.TempDir(), r, "json")
	if err != nil {
		tb.Fatal(err)
	}
	back, err := LoadResult(paths[0])
	if err != nil {
		tb.Fatal(err)
	}
	sc := back.Scenarios[naScenario(tb, back)]
	steps := "steps"
	for _, st := range sc.Steps {
		steps += " " + string(st.Status)
	}
	return []string{fmt.Sprintf("scenario %s: %s", sc.Status, sc.Error), steps, fmt.Sprintf("summary not_applicable %d", back.Summary.NotApplicable)}
}

func naJUnit(tb testing.TB, r *Result) []string {
	return junitOf(tb, r, "the audit event carries the request id")
}

func naCucumber(tb testing.TB, r *Result) []string {
	return naCucumberSteps(tb, parseCucumber(tb, r))
}

func naCucumberJVM(tb testing.TB, r *Result) []string {
	return naCucumberSteps(tb, parseCucumberForm(tb, CucumberJVM, r))
}

// naCucumberSteps is the status and message of each step of the
// not-applicable scenario in doc.
func naCucumberSteps(tb testing.TB, doc cucumberDoc) []string {
	for _, f := range doc {
		if f.URI != "features/request_ids.feature" {
			continue
		}
		var out []string
		for _, st := range f.Elements[0].Steps {
			out = append(out, strings.TrimSpace(st.Result.Status+" "+st.Result.ErrorMessage))
		}
		return out
	}
	tb.Fatal("cucumber.json has no feature features/request_ids.feature")
	return nil
}

func naCTRF(tb testing.TB, r *Result) []string {
	doc := parseCTRF(tb, r)
	test := doc.Results.Tests[len(doc.Results.Tests)-1]
	steps := "steps"
	for _, st := range test.Steps {
		steps += " " + st.Status
	}
	return []string{test.Status + " | " + test.RawStatus + " | " + test.Message, steps,
		fmt.Sprintf("step error %v", test.Steps[1].Extra["error"]),
		fmt.Sprintf("summary other %d", *doc.Results.Summary.Other),
		fmt.Sprintf("extra not_applicable %v", doc.Results.Extra["not_applicable"])}
}

func naSARIF(tb testing.TB, r *Result) []string {
	doc, _ := renderSARIF(tb, r)
	var out []string
	for _, res := range doc.Runs[0].Results {
		if res.Properties["scenarioId"] == naID {
			out = append(out, fmt.Sprintf("%s %s %s: %s", res.RuleID, res.Kind, res.Level, res.Message.Text))
		}
	}
	return append(out, fmt.Sprintf("summary not_applicable %d", doc.Runs[0].Properties.Summary.NotApplicable))
}

// naMarkdown returns the report's lines that name the not-applicable
// scenario or count it, and how many scenarios the failures section holds.
func naMarkdown(tb testing.TB, r *Result) []string {
	outside, _ := renderMarkdown(tb, r)
	var out []string
	for _, line := range strings.Split(outside, "\n") {
		if strings.HasPrefix(line, "| Level |") {
			continue // the levels' table, whose heading names every status
		}
		if strings.Contains(line, "not applicable") || strings.Contains(line, "request id") {
			out = append(out, line)
		}
	}
	failures, _, _ := strings.Cut(outside, "## Not applicable")
	_, failures, _ = strings.Cut(failures, "## Failures")
	return append(out, fmt.Sprintf("failures: %d", strings.Count(failures, "\n### ")))
}

// naHTML returns the page's lines that name the not-applicable scenario or
// count it, up to the badge.
func naHTML(tb testing.TB, r *Result) []string {
	page := renderHTML(tb, r)
	if err := checkHTMLPage(page); err != nil {
		tb.Fatalf("page does not parse back: %v", err)
	}
	var out []string
	for _, want := range []string{"<tr><th>Not applicable</th><td class=\"n\">1</td>",
		"<li><strong>the audit event carries the request id</strong>",
		"<span class=\"badge na\">not applicable</span> the audit event carries the request id"} {
		i := strings.Index(page, want)
		if i < 0 {
			out = append(out, "missing: "+want)
			continue
		}
		line, _, _ := strings.Cut(page[i:], "\n")
		if strings.HasPrefix(want, "<li>") {
			out = append(out, line)
		} else {
			out = append(out, want)
		}
	}
	return out
}

// naText returns the summary's lines from the not-applicable block on,
// and its last line.
func naText(tb testing.TB, r *Result) []string {
	var buf bytes.Buffer
	if err := Text(&buf, r, TextOptions{}); err != nil {
		tb.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	for i, line := range lines {
		if strings.Contains(line, "not applicable to the target") {
			return append(lines[i:i+3:i+3], lines[len(lines)-1])
		}
	}
	tb.Fatalf("the text summary does not list the not-applicable scenarios:\n%s", buf.String())
	return nil
}

func naProgress(tb testing.TB, r *Result) []string {
	var buf bytes.Buffer
	Progress(&buf, r.Scenarios[naScenario(tb, r)])
	return strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
}

// TestNotApplicableVerdict checks that not-applicable scenarios fail no
// run, in the summary's verdict and in every format that shows it, and
// that a run where nothing applied is no pass.
func TestNotApplicableVerdict(t *testing.T) {
	tests := []struct {
		name     string
		why      string
		statuses []Status
		want     Verdict
		reasons  []string
	}{{
		name:     "passed and not applicable",
		why:      "a scenario the target cannot be asked about is no failure of the adapter's",
		statuses: []Status{Passed, NotApplicable, Passed},
		want:     VerdictPassed,
		reasons: []string{"every scenario that applies to the target passed",
			"scenarios not applicable to the target, neither passed nor failed: 1"},
	}, {
		name:     "a failure beside them",
		why:      "not-applicable scenarios do not hide a failure",
		statuses: []Status{Failed, NotApplicable},
		want:     VerdictFailed,
		reasons:  []string{"failed scenarios no baseline explains: 1"},
	}, {
		name:     "a skip beside them",
		why:      "a skip still fails the run: not applicable is not a skip",
		statuses: []Status{Passed, Skipped, NotApplicable},
		want:     VerdictFailed,
		reasons:  []string{"skipped scenarios (a skip is not a pass): 1"},
	}, {
		name:     "nothing applied",
		why:      "a run where no scenario applied certified nothing, as a run where nothing ran",
		statuses: []Status{NotApplicable, NotApplicable},
		want:     VerdictFailed,
		reasons:  []string{"no scenario applies to the target: all 2 are not applicable"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Result{Tool: "toolcert", Version: "test", Target: "an MCP server"}
			for i, st := range tt.statuses {
				sc := Scenario{ID: fmt.Sprintf("features/f.feature:%d", i), Feature: "features/f.feature", Name: fmt.Sprintf("scenario %d", i), Status: st}
				if st == NotApplicable {
					sc.Error = naMessage
				}
				r.Scenarios = append(r.Scenarios, sc)
			}
			r.Tally()
			v, why := r.Summary.Verdict()
			if v != tt.want {
				t.Errorf("Verdict() = %s, want %s: %s", v, tt.want, tt.why)
			}
			if diff := cmp.Diff(tt.reasons, why); diff != "" {
				t.Errorf("Verdict() reasons (-want +got):\n%s", diff)
			}
			passed := tt.want == VerdictPassed
			doc, _ := renderSARIF(t, r)
			md, _ := renderMarkdown(t, r)
			page := renderHTML(t, r)
			got := []bool{*doc.Runs[0].Invocations[0].ExecutionSuccessful, strings.Contains(md, "**✅ PASSED**"), strings.Contains(page, "<strong>PASSED</strong>")}
			if diff := cmp.Diff([]bool{passed, passed, passed}, got); diff != "" {
				t.Errorf("SARIF executionSuccessful, Markdown and HTML verdicts disagree with Verdict() (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNotApplicableIsNoProblem: toolcerttest fails a Go test on a
// scenario's Problem; a scenario that did not apply is none.
func TestNotApplicableIsNoProblem(t *testing.T) {
	r := sample()
	if p := r.Scenarios[naScenario(t, r)].Problem(); p != "" {
		t.Errorf("Problem() of a not-applicable scenario = %q, want none", p)
	}
}

// TestNotApplicableBaseline: a not-applicable scenario is no failure to
// expect, and no unexpected pass when a baseline lists it; the entry is
// reported as not reached, since the run could not check it.
func TestNotApplicableBaseline(t *testing.T) {
	r := sample()
	if b := BaselineOf(r); strings.Contains(fmt.Sprint(b.Scenarios), naID) {
		t.Errorf("BaselineOf lists the not-applicable scenario: %+v", b.Scenarios)
	}
	unmatched := (&Baseline{Scenarios: []Expected{{ID: naID}}}).Apply(r)
	if mark := r.Scenarios[naScenario(t, r)].Baseline; mark != "" {
		t.Errorf("the listed not-applicable scenario is marked %q, want no mark", mark)
	}
	if diff := cmp.Diff([]string{naID}, unmatched); diff != "" {
		t.Errorf("unmatched (-want +got):\n%s", diff)
	}
	if s := r.Summary; s.UnexpectedPasses != 0 || s.ExpectedFailures != 0 || s.NotApplicable != 1 {
		t.Errorf("summary %+v: want no unexpected pass, no expected failure, 1 not applicable", s)
	}
}

// TestNotApplicableMerge: Merge counts the not-applicable scenarios of
// every shard.
func TestNotApplicableMerge(t *testing.T) {
	a, b := sample(), sample()
	for i := range b.Scenarios {
		b.Scenarios[i].ID += "/b"
	}
	a.Shard, b.Shard = "1/2", "2/2"
	got, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Summary.NotApplicable != 2 {
		t.Errorf("merged not applicable = %d, want 2 (one per shard)", got.Summary.NotApplicable)
	}
}

// TestNotApplicableHostileReason: the reason reaches Markdown and HTML as
// text, never as markup.
func TestNotApplicableHostileReason(t *testing.T) {
	r := sample()
	r.Scenarios[naScenario(t, r)].Error = notApplicablePrefix + htmlHostile + "\n# injected heading"
	outside, _ := renderMarkdown(t, r)
	text := withoutCodeSpans(strings.ReplaceAll(outside, `\<`, ""))
	for _, bad := range []string{"<script", "<img", "\x1b", "\n# injected"} {
		if strings.Contains(text, bad) {
			t.Errorf("report.md holds %q outside code:\n%s", bad, outside)
		}
	}
	page := renderHTML(t, r)
	if err := checkHTMLPage(page); err != nil {
		t.Errorf("the reason changed the page's markup: %v", err)
	}
	if err := checkHTMLText(page); err != nil {
		t.Error(err)
	}
	if _, err := Write(filepath.Join(t.TempDir(), "all"), r, FormatNames()...); err != nil {
		t.Errorf("Write of every format: %v", err)
	}
}
