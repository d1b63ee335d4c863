package reports

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// soMessage is what every format says of sample()'s strict-only scenario,
// which failed at level strict.
const soMessage = strictOnlyMessage + " (level strict: failed)"

// atLevel returns r as the run that certifies level l: its level, each
// scenario's and case's status its status at l, the summary recounted.
func atLevel(r *Result, l Level) *Result {
	r.Level = l
	for i := range r.Scenarios {
		sc := &r.Scenarios[i]
		sc.Status = sc.StatusAt(l)
		for j := range sc.Cases {
			sc.Cases[j].Status = sc.Cases[j].StatusAt(l)
		}
	}
	r.Tally()
	return r
}

// TestStrictOnlyRendered checks how each format shows the strict-only
// scenario of sample(): as the not-applicable one is shown, apart from
// passes, skips and failures, in the status the format's schema comes
// closest with, but saying that level safe does not judge it and what
// level strict found.
func TestStrictOnlyRendered(t *testing.T) {
	tests := []struct {
		name string
		why  string
		view func(tb testing.TB, r *Result) []string
		want []string
	}{{
		name: "json",
		why:  "results.json carries the status at each level and the counts; LoadResult reads them back",
		view: soJSON,
		want: []string{"scenario strict_only: safe strict_only, strict failed", "summary strict_only 1",
			"level safe strict_only 1 failed 1", "level strict strict_only 0 failed 2"},
	}, {
		name: "junit",
		why:  "JUnit has no such status: a skipped testcase whose message says level safe does not judge it",
		view: func(tb testing.TB, r *Result) []string { return junitOf(tb, r, strictOnlyName) },
		want: []string{"skipped: " + soMessage, "failure: none"},
	}, {
		name: "cucumber",
		why:  "the failed step (at level strict) is skipped, saying that level safe does not judge it, then its error and the evidence about level strict",
		view: func(tb testing.TB, r *Result) []string {
			return cucumberStepsOf(tb, parseCucumber(tb, r), strictOnlyID)
		},
		want: []string{"passed", "skipped " + soMessage + "\n" + `the audit event's gate is "parse", want "schema"` +
			"\nevidence [audit, level strict] gate parse, reason duplicate_name; want gate schema"},
	}, {
		name: "cucumber-jvm",
		why:  "as in the cucumber-js form",
		view: func(tb testing.TB, r *Result) []string {
			return cucumberStepsOf(tb, parseCucumberForm(tb, CucumberJVM, r), strictOnlyID)
		},
		want: []string{"passed", "skipped " + soMessage + "\n" + `the audit event's gate is "parse", want "schema"` +
			"\nevidence [audit, level strict] gate parse, reason duplicate_name; want gate schema"},
	}, {
		name: "ctrf",
		why:  "CTRF's \"other\", rawStatus strict_only, the message; its failed step other too; the counts in results.extra",
		view: soCTRF,
		want: []string{"other | strict_only | " + soMessage, "steps passed other", "extra strict_only 1, level safe"},
	}, {
		name: "sarif",
		why:  "a result of kind notApplicable and level none, rule toolcert/strict-only, and the level in the run's properties",
		view: soSARIF,
		want: []string{`toolcert/strict-only notApplicable none: Scenario "` + strictOnlyName + `" is ` + soMessage + ".",
			"level safe, summary strict_only 1"},
	}, {
		name: "markdown",
		why:  "a summary row, a section listing it with its status at level strict, its own label, and no place among the failures",
		view: soMarkdown,
		want: []string{"| Scenarios strict only (level safe does not judge them) | 1 |",
			"- **" + strictOnlyName + "** (`features/reject_gates.feature`): level strict: failed",
			"- ➖ STRICT ONLY: " + strictOnlyName + " (features/reject\\_gates.feature)",
			"failures: 2"},
	}, {
		name: "html",
		why:  "a count in the summary, a section listing it, its own badge with its status at level strict",
		view: soHTML,
		want: []string{"<tr><th>Strict only</th><td class=\"n\">1</td>",
			"<li><strong>" + strictOnlyName + "</strong> <span class=\"meta\">features/reject_gates.feature</span>: <span class=\"msg\">level strict: failed</span></li>",
			"<span class=\"badge strict\">strict only</span> " + strictOnlyName,
			"<span class=\"tag\">@strict</span>; level strict: failed</p>"},
	}, {
		name: "text",
		why:  "the summary lists it apart with its status at level strict and counts it in the last line",
		view: soText,
		want: []string{"1 scenarios strict only (level safe does not judge them; neither passed nor failed):",
			"  features/reject_gates.feature: " + strictOnlyName, "      level strict: failed"},
	}, {
		name: "progress",
		why:  "the progress line marks it S/O and says why on the next line",
		view: func(tb testing.TB, r *Result) []string {
			var buf bytes.Buffer
			Progress(&buf, r.Scenarios[scenarioIndex(tb, r, strictOnlyID)])
			return strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		},
		want: []string{"S/O  features/reject_gates.feature: " + strictOnlyName + " (15ms)", "     " + soMessage},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.view(t, sample())); diff != "" {
				t.Errorf("%s\n(-want +got):\n%s", tt.why, diff)
			}
		})
	}
}

// scenarioIndex returns the index of the scenario id in r.
func scenarioIndex(tb testing.TB, r *Result, id string) int {
	tb.Helper()
	for i, sc := range r.Scenarios {
		if sc.ID == id {
			return i
		}
	}
	tb.Fatalf("no scenario %s", id)
	return -1
}

func soJSON(tb testing.TB, r *Result) []string {
	paths, err := Write(tb.TempDir(), r, "json")
	if err != nil {
		tb.Fatal(err)
	}
	back, err := LoadResult(paths[0])
	if err != nil {
		tb.Fatal(err)
	}
	sc := back.Scenarios[scenarioIndex(tb, back, strictOnlyID)]
	out := []string{fmt.Sprintf("scenario %s: safe %s, strict %s", sc.Status, sc.Levels[LevelSafe], sc.Levels[LevelStrict]),
		fmt.Sprintf("summary strict_only %d", back.Summary.StrictOnly)}
	for _, ls := range back.Summary.Levels {
		out = append(out, fmt.Sprintf("level %s strict_only %d failed %d", ls.Level, ls.StrictOnly, ls.Failed))
	}
	return out
}

// junitOf returns the skip and failure messages of the testcase name.
func junitOf(tb testing.TB, r *Result, name string) []string {
	var buf bytes.Buffer
	if err := JUnit(&buf, r); err != nil {
		tb.Fatal(err)
	}
	type message struct {
		Message string `xml:"message,attr"`
	}
	var doc struct {
		Suites []struct {
			Cases []struct {
				Name    string   `xml:"name,attr"`
				Skipped *message `xml:"skipped"`
				Failure *message `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		tb.Fatalf("junit.xml does not parse: %v", err)
	}
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if c.Name != name {
				continue
			}
			out := []string{"skipped: none", "failure: none"}
			if c.Skipped != nil {
				out[0] = "skipped: " + c.Skipped.Message
			}
			if c.Failure != nil {
				out[1] = "failure: " + c.Failure.Message
			}
			return out
		}
	}
	tb.Fatalf("junit.xml has no testcase %q:\n%s", name, buf.String())
	return nil
}

// cucumberStepsOf is the status and message of each step of the scenario
// id in doc (its line names it).
func cucumberStepsOf(tb testing.TB, doc cucumberDoc, id string) []string {
	feature, _, _ := strings.Cut(id, ":")
	for _, f := range doc {
		if f.URI != feature {
			continue
		}
		var out []string
		for _, st := range f.Elements[0].Steps {
			out = append(out, strings.TrimSpace(st.Result.Status+" "+st.Result.ErrorMessage))
		}
		return out
	}
	tb.Fatalf("cucumber.json has no feature %s", feature)
	return nil
}

func soCTRF(tb testing.TB, r *Result) []string {
	doc := parseCTRF(tb, r)
	for _, test := range doc.Results.Tests {
		if test.Name != strictOnlyName {
			continue
		}
		steps := "steps"
		for _, st := range test.Steps {
			steps += " " + st.Status
		}
		x := doc.Results.Extra
		return []string{test.Status + " | " + test.RawStatus + " | " + test.Message, steps,
			fmt.Sprintf("extra strict_only %v, level %v", x["strict_only"], x["level"])}
	}
	tb.Fatal("ctrf.json has no test of the strict-only scenario")
	return nil
}

func soSARIF(tb testing.TB, r *Result) []string {
	doc, raw := renderSARIF(tb, r)
	var out []string
	for _, res := range doc.Runs[0].Results {
		if res.Properties["scenarioId"] == strictOnlyID {
			out = append(out, fmt.Sprintf("%s %s %s: %s", res.RuleID, res.Kind, res.Level, res.Message.Text))
		}
	}
	level := "none"
	if bytes.Contains(raw, []byte(`"level": "safe",`)) {
		level = "safe"
	}
	return append(out, fmt.Sprintf("level %s, summary strict_only %d", level, doc.Runs[0].Properties.Summary.StrictOnly))
}

// soMarkdown returns the report's lines that name the strict-only
// scenario or count it, and how many scenarios the failures section holds.
func soMarkdown(tb testing.TB, r *Result) []string {
	outside, _ := renderMarkdown(tb, r)
	var out []string
	for _, line := range strings.Split(outside, "\n") {
		if !strings.HasPrefix(line, "| Level |") && (strings.Contains(line, "strict only") && strings.HasPrefix(line, "|") || strings.Contains(line, "unknown member")) {
			out = append(out, line)
		}
	}
	failures, _, _ := strings.Cut(outside, "## Not applicable")
	_, failures, _ = strings.Cut(failures, "## Failures")
	return append(out, fmt.Sprintf("failures: %d", strings.Count(failures, "\n### ")))
}

// soHTML returns, for each piece the page must hold, the piece or what is
// missing; a list item whole, up to its line's end.
func soHTML(tb testing.TB, r *Result) []string {
	page := renderHTML(tb, r)
	if err := checkHTMLPage(page); err != nil {
		tb.Fatalf("page does not parse back: %v", err)
	}
	var out []string
	for _, want := range []string{"<tr><th>Strict only</th><td class=\"n\">1</td>", "<li><strong>" + strictOnlyName + "</strong>",
		"<span class=\"badge strict\">strict only</span> " + strictOnlyName, "<span class=\"tag\">@strict</span>; level strict: failed</p>"} {
		i := strings.Index(page, want)
		switch {
		case i < 0:
			out = append(out, "missing: "+want)
		case strings.HasPrefix(want, "<li>"):
			line, _, _ := strings.Cut(page[i:], "\n")
			out = append(out, line)
		default:
			out = append(out, want)
		}
	}
	return out
}

// soText returns the summary's lines of the strict-only block.
func soText(tb testing.TB, r *Result) []string {
	var buf bytes.Buffer
	if err := Text(&buf, r, TextOptions{}); err != nil {
		tb.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	for i, line := range lines {
		if strings.Contains(line, "strict only (level safe does not judge them") {
			return lines[i : i+3]
		}
	}
	tb.Fatalf("the text summary does not list the strict-only scenarios:\n%s", buf.String())
	return nil
}

// TestStrictOnlyVerdict checks that strict-only scenarios and cases fail
// no run and pass none, in the summary's verdict and in every format that
// shows it, and that a run where nothing was judged is no pass.
func TestStrictOnlyVerdict(t *testing.T) {
	tests := []struct {
		name     string
		why      string
		statuses []Status
		cases    []Status
		want     Verdict
		reasons  []string
	}{{
		name:     "passed and strict only",
		why:      "a scenario level safe does not judge is no failure at level safe",
		statuses: []Status{Passed, StrictOnly, Passed},
		want:     VerdictPassed,
		reasons: []string{"every scenario that level safe judges passed",
			"scenarios strict only (level safe does not judge them), neither passed nor failed: 1"},
	}, {
		name:     "passed, not applicable and strict only",
		why:      "the pass says both what did not apply and what was not judged",
		statuses: []Status{Passed, StrictOnly, NotApplicable},
		want:     VerdictPassed,
		reasons: []string{"every scenario that applies to the target and that level safe judges passed",
			"scenarios not applicable to the target, neither passed nor failed: 1",
			"scenarios strict only (level safe does not judge them), neither passed nor failed: 1"},
	}, {
		name:     "a strict-only case",
		why:      "a case level safe does not judge is counted in the pass's reasons, not as a failure",
		statuses: []Status{Passed},
		cases:    []Status{Passed, StrictOnly},
		want:     VerdictPassed,
		reasons: []string{"every scenario passed",
			"generated cases strict only (level safe does not judge them), neither passed nor failed: 1"},
	}, {
		name:     "a failure beside them",
		why:      "strict-only scenarios do not hide a failure",
		statuses: []Status{Failed, StrictOnly},
		want:     VerdictFailed,
		reasons:  []string{"failed scenarios no baseline explains: 1"},
	}, {
		name:     "nothing judged",
		why:      "a run where every scenario was strict only or not applicable certified nothing",
		statuses: []Status{StrictOnly, NotApplicable, StrictOnly},
		want:     VerdictFailed,
		reasons:  []string{"level safe judged no scenario: 2 are strict only, 1 not applicable"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Result{Tool: "toolcert", Version: "test", Target: "an MCP server", Level: LevelSafe}
			for i, st := range tt.statuses {
				sc := Scenario{ID: fmt.Sprintf("features/f.feature:%d", i), Feature: "features/f.feature", Name: fmt.Sprintf("scenario %d", i),
					Status: st, Levels: map[Level]Status{LevelSafe: st, LevelStrict: Passed}}
				if i == 0 {
					for j, cs := range tt.cases {
						sc.Cases = append(sc.Cases, Case{ID: fmt.Sprintf("t/op%d", j), Tool: "t", Operator: "op", Status: cs})
					}
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

// TestVerdictAt: the verdict at the level a run certifies is its
// summary's, baseline included; at the other level it is that level's
// counts', with no baseline; a result written before levels has none at
// the other level.
func TestVerdictAt(t *testing.T) {
	r := sample()
	r.Scenarios = r.Scenarios[:2] // passed, failed
	r.Scenarios[1].Levels = map[Level]Status{LevelSafe: Passed, LevelStrict: Failed}
	r.Scenarios[1].Status = Passed
	r.Scenarios[1].Cases[1].Levels = map[Level]Status{LevelSafe: Passed, LevelStrict: Failed}
	r.Scenarios[1].Cases[1].Status = Passed
	r.Tally()
	got := func(l Level) string {
		v, why, ok := r.VerdictAt(l)
		return fmt.Sprintf("%s %v %t", v, why, ok)
	}
	want := []string{"passed [every scenario passed] true",
		"failed [failed scenarios no baseline explains: 1 failed generated cases no baseline lists: 2] true"}
	if diff := cmp.Diff(want, []string{got(LevelSafe), got(LevelStrict)}); diff != "" {
		t.Errorf("VerdictAt(safe), VerdictAt(strict) (-want +got):\n%s", diff)
	}
	(&Baseline{Level: LevelSafe, Scenarios: []Expected{{ID: failingID}}}).Apply(r)
	if v, _, _ := r.VerdictAt(LevelSafe); v != VerdictFailed {
		t.Errorf("VerdictAt(safe) = %s with an unexpected pass of the baseline, want failed", v)
	}
	old := &Result{Scenarios: []Scenario{{ID: "a", Status: Passed}}}
	old.Tally()
	if v, _, ok := old.VerdictAt(LevelSafe); ok || v != "" {
		t.Errorf("VerdictAt(safe) of a result written before levels = %q, %t; want none", v, ok)
	}
	if v, _, ok := old.VerdictAt(LevelStrict); !ok || v != VerdictPassed {
		t.Errorf("VerdictAt(strict) of a result written before levels = %q, %t; want passed: it certified strict", v, ok)
	}
}

// TestEvidenceAtTheCertifiedLevel: a format that shows the evidence of a
// failure shows what counts at the level the run certifies, first or
// only; evidence about the other level's verdict alone makes no finding.
func TestEvidenceAtTheCertifiedLevel(t *testing.T) {
	const strictEvidence = "the agent saw another outcome than the failure INVALID_RESPONSE"
	tests := []struct {
		name  string
		level Level
		why   string
		want  []string // per format: whether the strict evidence is shown, and where
	}{{
		name:  "safe",
		level: LevelSafe,
		why:   "the case passes at level safe: its evidence about strict is no finding, and no summary lists it",
		want:  []string{"text false", "markdown false", "sarif results 0", "junit false", "cucumber false", "ctrf message false"},
	}, {
		name:  "strict",
		level: LevelStrict,
		why:   "the case fails at level strict: its evidence is the failure's",
		want:  []string{"text true", "markdown true", "sarif results 1", "junit true", "cucumber true", "ctrf message true"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := atLevel(sample(), tt.level)
			var text bytes.Buffer
			if err := Text(&text, r, TextOptions{}); err != nil {
				t.Fatal(err)
			}
			md, _ := renderMarkdown(t, r)
			doc, _ := renderSARIF(t, r)
			sarif := 0
			for _, res := range doc.Runs[0].Results {
				if res.Properties["caseId"] == safeOnlyCase && strings.Contains(res.Message.Text, strictEvidence) {
					sarif++
				}
			}
			var junit, cucumber bytes.Buffer
			if err := JUnit(&junit, r); err != nil {
				t.Fatal(err)
			}
			if err := CucumberJSON(&cucumber, r); err != nil {
				t.Fatal(err)
			}
			ctrf := false
			for _, test := range parseCTRF(t, r).Results.Tests {
				ctrf = ctrf || strings.HasSuffix(test.Name, safeOnlyCase) && test.Message == strictEvidence
			}
			got := []string{
				fmt.Sprintf("text %t", strings.Contains(text.String(), strictEvidence)),
				fmt.Sprintf("markdown %t", strings.Contains(md, mdEscape(strictEvidence))),
				fmt.Sprintf("sarif results %d", sarif),
				fmt.Sprintf("junit %t", strings.Contains(junit.String(), strictEvidence)),
				fmt.Sprintf("cucumber %t", strings.Contains(cucumber.String(), strictEvidence)),
				fmt.Sprintf("ctrf message %t", ctrf),
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.why, diff)
			}
		})
	}
}

// TestEvidenceFirst: evidence about every level or the level given comes
// first, the rest after it, each in order, labelled with its level.
func TestEvidenceFirst(t *testing.T) {
	ev := []Evidence{
		{Kind: EvidenceMismatch, Message: "strict 1", Level: LevelStrict},
		{Kind: EvidenceLeak, Message: "every level"},
		{Kind: EvidenceBaseline, Message: "safe", Level: LevelSafe},
		{Kind: EvidenceMismatch, Message: "strict 2", Level: LevelStrict},
	}
	var got []string
	for _, e := range evidenceFirst(ev, LevelSafe) {
		got = append(got, evidenceKind(e)+": "+e.Message)
	}
	want := []string{"leak: every level", "baseline, level safe: safe", "mismatch, level strict: strict 1", "mismatch, level strict: strict 2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("evidenceFirst (-want +got):\n%s", diff)
	}
}

// TestMarksApartFromLeaks: the summary counts the marks that count at the
// level certified apart from the leaks, and every format that counts
// leaks counts them.
func TestMarksApartFromLeaks(t *testing.T) {
	r := sample()
	if s := r.Summary; s.Marks != 1 || s.Leaks != 1 {
		t.Fatalf("summary leaks %d, marks %d; want 1 and 1", s.Leaks, s.Marks)
	}
	var text bytes.Buffer
	if err := Text(&text, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	md, _ := renderMarkdown(t, r)
	page := renderHTML(t, r)
	x := parseCTRF(t, r).Results.Extra
	got := []string{
		fmt.Sprintf("text %t", strings.Contains(text.String(), "1 canary leaks; 1 marks (accepted answers shown to the agent)")),
		fmt.Sprintf("markdown %t", strings.Contains(md, "| Marks (refusable answers accepted and shown to the agent) | 1 |")),
		fmt.Sprintf("html %t", strings.Contains(page, `<tr><th>Marks</th><td class="n bad">1</td>`)),
		fmt.Sprintf("ctrf leaks %v marks %v", x["leaks"], x["marks"]),
	}
	want := []string{"text true", "markdown true", "html true", "ctrf leaks 1 marks 1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// A mark about level strict only does not count at level safe.
	r.Scenarios[1].Cases[1].Evidence[1].Level = LevelStrict
	r.Tally()
	if r.Summary.Marks != 0 {
		t.Errorf("a mark about level strict counts at level safe: marks %d", r.Summary.Marks)
	}
}

// TestStrictOnlyIsNoProblem: toolcerttest fails a Go test on a scenario's
// Problem; a strict-only scenario whose evidence is about level strict is
// none, and nor is a strict-only case.
func TestStrictOnlyIsNoProblem(t *testing.T) {
	r := sample()
	so := r.Scenarios[scenarioIndex(t, r, strictOnlyID)]
	if p := so.Problem(); p != "" {
		t.Errorf("Problem() of a strict-only scenario = %q, want none", p)
	}
	so.Evidence[0].Level = "" // as the runner records a @strict scenario's evidence
	if p := so.Problem(); p != "" {
		t.Errorf("Problem() of a strict-only scenario with evidence about every level = %q, want none: level safe does not judge it", p)
	}
	sc := Scenario{ID: "a", Status: Passed, Cases: []Case{{ID: "t/reject", Status: StrictOnly}},
		Evidence: []Evidence{{Kind: EvidenceMismatch, Message: "at strict", Level: LevelStrict}}}
	if p := sc.Problem(); p != "" {
		t.Errorf("Problem() of a passed scenario with a strict-only case and evidence about level strict = %q, want none", p)
	}
}

// TestStrictOnlyBaseline: a strict-only scenario or case is no failure to
// expect and no unexpected pass; an entry that lists one is not reached,
// since the level certified does not judge it.
func TestStrictOnlyBaseline(t *testing.T) {
	r := sample()
	r.Scenarios[1].Cases[0].Status = StrictOnly
	r.Tally()
	if b := BaselineOf(r); strings.Contains(fmt.Sprint(b), strictOnlyID) || strings.Contains(fmt.Sprint(b), safeOnlyCase) {
		t.Errorf("BaselineOf lists a strict-only scenario or case: %+v", b)
	}
	unmatched := (&Baseline{Level: LevelSafe, Scenarios: []Expected{{ID: strictOnlyID}}, Cases: []Expected{{ID: safeOnlyCase}}}).Apply(r)
	if diff := cmp.Diff([]string{strictOnlyID, safeOnlyCase}, unmatched); diff != "" {
		t.Errorf("unmatched (-want +got):\n%s", diff)
	}
	if s := r.Summary; s.UnexpectedPasses != 0 || s.ExpectedFailures != 0 || s.StrictOnly != 1 || s.CasesStrictOnly != 1 {
		t.Errorf("summary %+v: want no unexpected pass, no expected failure, 1 strict-only scenario and case", s)
	}
}

// TestLevelsBeforeLevels: a result whose scenarios carry no status per
// level (written before levels) has no per-level counts: its status at
// level safe is unknown, not its status at strict.
func TestLevelsBeforeLevels(t *testing.T) {
	r := &Result{Scenarios: []Scenario{{ID: "a", Status: Passed, Cases: []Case{{ID: "c", Status: Failed}}}}}
	r.Tally()
	if _, ok := r.Summary.At(LevelSafe); ok || len(r.Summary.Levels) != 0 {
		t.Errorf("a result without levels has per-level counts: %+v", r.Summary.Levels)
	}
	if r.CertifiedLevel() != LevelStrict {
		t.Errorf("a result without a level certifies %s, want strict", r.CertifiedLevel())
	}
}

// TestTextStrictOnlyCases: the text summary lists a strict-only case
// apart, with its status at level strict, and not among the failed cases.
func TestTextStrictOnlyCases(t *testing.T) {
	r := sample()
	c := &r.Scenarios[1].Cases[0]
	c.Status, c.Levels = StrictOnly, map[Level]Status{LevelSafe: StrictOnly, LevelStrict: Failed}
	r.Tally()
	var buf bytes.Buffer
	if err := Text(&buf, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	want := "1 generated cases strict only (level safe does not judge them; neither passed nor failed):\n" +
		"  case " + safeOnlyCase + " (features/leaks.feature: a message is never forwarded)\n      level strict: failed\n"
	if !strings.Contains(out, want) || strings.Contains(out, "case "+safeOnlyCase+":") {
		t.Errorf("the summary does not list the strict-only case apart, or lists it as failed:\n%s", out)
	}
	if !strings.Contains(out, "2 generated cases: 0 passed, 1 failed, 1 strict only (level safe does not judge them)") {
		t.Errorf("the summary does not count the strict-only case:\n%s", out)
	}
}
