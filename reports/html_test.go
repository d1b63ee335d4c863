package reports

import (
	"bytes"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// renderHTML renders r as HTML or fails the test.
func renderHTML(tb testing.TB, r *Result) string {
	tb.Helper()
	var b bytes.Buffer
	if err := HTML(&b, r); err != nil {
		tb.Fatalf("HTML: %v", err)
	}
	return b.String()
}

var (
	htmlTagRE  = regexp.MustCompile(`<(/?)(!DOCTYPE|[a-z][a-z0-9]*)((?:\s+[a-z-]+(?:="[^"<>]*")?)*)>`)
	htmlAttrRE = regexp.MustCompile(`\s+([a-z-]+)(?:="[^"<>]*")?`)
)

// htmlElements lists the elements and attributes the page may hold: the
// template's own. Anything else in a rendered page was injected.
var (
	htmlElements = strings.Fields("!DOCTYPE html head meta title style body header h1 h2 div strong span dl dt dd " +
		"code main section table tr th td details summary p pre ul li footer a")
	htmlAttrs = strings.Fields("lang charset http-equiv content name class open html href")
	htmlVoid  = map[string]bool{"!DOCTYPE": true, "meta": true}
)

// checkHTMLPage parses page back: every "<" opens a tag of the template's
// own, with attributes of its own, and the tags nest. Escaped model text
// holds no "<", so an injected element or attribute fails the check.
func checkHTMLPage(page string) error {
	tags := htmlTagRE.FindAllStringSubmatch(page, -1)
	if n := strings.Count(page, "<"); n != len(tags) {
		return fmt.Errorf("%d '<' in the page but %d tags", n, len(tags))
	}
	var open []string
	for _, m := range tags {
		closing, name, attrs := m[1] == "/", m[2], m[3]
		if !slices.Contains(htmlElements, name) {
			return fmt.Errorf("unexpected element %s", m[0])
		}
		for _, a := range htmlAttrRE.FindAllStringSubmatch(attrs, -1) {
			if !slices.Contains(htmlAttrs, a[1]) {
				return fmt.Errorf("unexpected attribute %s in %s", a[1], m[0])
			}
		}
		switch {
		case htmlVoid[name]:
		case !closing:
			open = append(open, name)
		case len(open) == 0 || open[len(open)-1] != name:
			return fmt.Errorf("%s closes %v", m[0], open)
		default:
			open = open[:len(open)-1]
		}
	}
	if len(open) > 0 {
		return fmt.Errorf("unclosed %v", open)
	}
	return nil
}

// checkHTMLText reports the first character the page must not carry.
func checkHTMLText(page string) error {
	if !utf8.ValidString(page) {
		return fmt.Errorf("page is not valid UTF-8")
	}
	for i, r := range page {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r >= 0x7F && r <= 0x9F || r == '\u202E' {
			return fmt.Errorf("control character %U at byte %d", r, i)
		}
	}
	return nil
}

func TestHTMLParsesBack(t *testing.T) {
	r := sample()
	page := renderHTML(t, r)
	if err := checkHTMLPage(page); err != nil {
		t.Fatalf("page does not parse back: %v", err)
	}
	if err := checkHTMLText(page); err != nil {
		t.Error(err)
	}
	if strings.Contains(strings.ToLower(page), "<script") {
		t.Error("page holds a <script")
	}
	csp := `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">`
	for _, want := range []string{csp, "<strong>FAILED</strong>", "2026-11-29T16:00:00Z", "toolcert run --case run_status/failed/nan/attempt --seed 42"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, sc := range r.Scenarios {
		if !strings.Contains(page, template.HTMLEscapeString(sc.Name)) {
			t.Errorf("page lacks scenario %q", sc.Name)
		}
	}
	if strings.Contains(page, "run_status/failed/extra_property") {
		t.Error("a passed case is listed: passed cases are counted only")
	}
}

// htmlHostile is text an adapter may send: markup, a javascript: URL, an ANSI
// escape, a bidi override, a NUL and invalid UTF-8.
const htmlHostile = "\x1b[31m</script><script>alert(1)</script>\xff <img src=x onerror=alert(1)> " +
	`<a href="javascript:alert(1)">x</a> javascript:alert(1) ` + "\u202e\x00\x7f"

// htmlHostileSample is sample() with htmlHostile text in every kind of model text.
func htmlHostileSample() *Result {
	r := sample()
	r.Target = htmlHostile
	r.BaselineUnmatched = []string{htmlHostile}
	r.Coverage = []Cell{{Operator: htmlHostile, Tool: htmlHostile, Status: CellFailed, Cases: 1}}
	sc := &r.Scenarios[1]
	sc.Name, sc.Feature, sc.ID, sc.Error, sc.Tags = "leak "+htmlHostile, htmlHostile, htmlHostile, htmlHostile, []string{htmlHostile}
	sc.Steps[0].Text, sc.Steps[0].Error, sc.Steps[0].Keyword = htmlHostile, htmlHostile, htmlHostile
	sc.Evidence[0].Message, sc.Evidence[0].Canary, sc.Evidence[0].Diff = htmlHostile, htmlHostile, "-"+htmlHostile+"\n+"+htmlHostile
	c := &sc.Cases[1]
	c.ID, c.Field, c.Reproducer, c.Evidence[0].Message = htmlHostile, htmlHostile, htmlHostile, htmlHostile
	r.Scenarios[0].Name = htmlHostile
	return r
}

func TestHTMLHostileTextIsInert(t *testing.T) {
	page := renderHTML(t, htmlHostileSample())
	if err := checkHTMLPage(page); err != nil {
		t.Fatalf("htmlHostile text changed the page's markup: %v", err)
	}
	if err := checkHTMLText(page); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"<script", "<img", "<a ", `href="`, `javascript:alert(1)">`} {
		if strings.Contains(strings.ToLower(page), bad) {
			t.Errorf("page holds %q unescaped", bad)
		}
	}
	// The text is shown, escaped, with the bytes it cannot carry replaced
	// and the bidi override written as a visible escape (the one rule of
	// every format, inert).
	shown := "\uFFFD[31m&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;\uFFFD &lt;img src=x onerror=alert(1)&gt; " +
		"&lt;a href=&#34;javascript:alert(1)&#34;&gt;x&lt;/a&gt; javascript:alert(1) \\u202e\uFFFD\uFFFD"
	if n := strings.Count(page, shown); n < 15 {
		t.Errorf("escaped htmlHostile text shown %d times, want every field (15 or more):\n%s", n, page)
	}
}

func TestHTMLVerdict(t *testing.T) {
	for _, tc := range []struct {
		name, reason string
		s            Summary
		want         string
	}{
		{"all passed", "nothing failed", Summary{Scenarios: 2, Passed: 2}, "PASSED"},
		{"unexplained failure", "a failure no baseline lists", Summary{Scenarios: 2, Passed: 1, Failed: 1}, "FAILED"},
		{"expected failures", "the baseline explains every failure", Summary{Scenarios: 2, Passed: 1, Failed: 1, ExpectedFailures: 1, CasesFailed: 2, CasesExpected: 2}, "PASSED"},
		{"unexplained case", "a generated case failed that no baseline lists", Summary{Scenarios: 1, Failed: 1, ExpectedFailures: 1, CasesFailed: 2, CasesExpected: 1}, "FAILED"},
		{"unexpected pass", "a stale baseline entry fails the run", Summary{Scenarios: 1, Passed: 1, UnexpectedPasses: 1}, "FAILED"},
		{"skipped", "a skip is not a pass", Summary{Scenarios: 2, Passed: 1, Skipped: 1}, "FAILED"},
		{"not applicable", "a scenario the target cannot be asked about is no failure", Summary{Scenarios: 2, Passed: 1, NotApplicable: 1}, "PASSED"},
		{"interrupted", "a stopped run is neither pass nor plain failure", Summary{Scenarios: 2, Passed: 1, Skipped: 1, Interrupted: true}, "INTERRUPTED"},
		{"nothing ran", "an empty run proves nothing", Summary{}, "FAILED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := htmlVerdictOf(tc.s).Word; got != tc.want {
				t.Errorf("verdict = %s, want %s (%s)", got, tc.want, tc.reason)
			}
		})
	}
}

// htmlFullSample is sample() with what sample() leaves out: a baseline that
// expects the failed case, lists a passing one and an ID the run never
// reached; the coverage matrix; blocked calls; a restart; step keywords.
func htmlFullSample() *Result {
	r := sample()
	r.Summary.Blocked, r.Summary.BlockedRequests, r.Summary.TargetRestarts = 2, 1, 1
	r.Scenarios[0].Tags = []string{"@r20"}
	r.Scenarios[1].Steps[0].Keyword, r.Scenarios[1].Steps[0].Duration = "Then", Duration(3*time.Millisecond)
	b := &Baseline{
		Scenarios: []Expected{{ID: "features/leaks.feature:3"}},
		Cases:     []Expected{{ID: "run_status/failed/nan/attempt"}, {ID: "run_status/failed/extra_property"}, {ID: "gone/case"}},
	}
	r.BaselineUnmatched = b.Apply(r)
	r.Coverage = BuildCoverage(r.Scenarios, []string{"bom", "extra_property", "nan"})
	return r
}

func TestHTMLFullGolden(t *testing.T) {
	page := renderHTML(t, htmlFullSample())
	if err := checkHTMLPage(page); err != nil {
		t.Fatalf("page does not parse back: %v", err)
	}
	golden := filepath.Join("testdata", "report-full.html")
	if *update {
		if err := os.WriteFile(golden, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("read golden (run with -update to create): %v", err)
	}
	if diff := cmp.Diff(string(want), page); diff != "" {
		t.Errorf("report-full.html mismatch (-want +got):\n%s", diff)
	}
}

// htmlSizeBound bounds the page of a run whose cases all pass. Passed cases
// are counted, not listed, so the page grows with the scenarios (about
// 1 KB each with their steps) and the folded coverage matrix, not with the
// cases: the built-in run (109 scenarios, 2,533 cases) writes about 140 KB,
// this test's run about 85 KB; both stay far under 1 MB.
const htmlSizeBound = 256 << 10

func TestHTMLSizeOfPassedRun(t *testing.T) {
	r := &Result{Tool: "toolcert", Version: "test", Target: "in-process reference"}
	ops := strings.Fields("bom nan extra_property missing_required wrong_type huge_string deep_nesting " +
		"null_byte unicode_confusable negative_zero duplicate_key trailing_garbage empty_object int_overflow")
	for i := range 109 {
		sc := Scenario{ID: fmt.Sprintf("features/f%d.feature:%d", i%12, i), Feature: fmt.Sprintf("features/f%d.feature", i%12),
			Name: fmt.Sprintf("scenario %d is rejected as it should be", i), Status: Passed, Lane: i%4 + 1,
			Duration: Duration(20 * time.Millisecond), Tags: []string{"@r20"},
			Steps: []Step{{Keyword: "Given", Text: "the reference upstream", Status: Passed},
				{Keyword: "When", Text: "the agent calls \"run_status\"", Status: Passed}, {Keyword: "Then", Text: "nothing reaches the upstream", Status: Passed}}}
		r.Scenarios = append(r.Scenarios, sc)
	}
	for i := range 3000 {
		op, tool := ops[i%len(ops)], fmt.Sprintf("tool_%d", i%9)
		id := fmt.Sprintf("%s/passed/%s/field_%d/%d", tool, op, i%5, i)
		sc := &r.Scenarios[i%len(r.Scenarios)]
		sc.Cases = append(sc.Cases, Case{ID: id, Tool: tool, Operator: op, Field: fmt.Sprintf("/field_%d", i%5), Status: Passed,
			Reproducer: "toolcert run --case " + id + " --seed 42"})
	}
	r.Coverage = BuildCoverage(r.Scenarios, ops)
	r.Tally()
	page := renderHTML(t, r)
	t.Logf("page for 109 scenarios and 3000 passed cases: %d bytes", len(page))
	if len(page) > htmlSizeBound {
		t.Errorf("page is %d bytes, want at most %d", len(page), htmlSizeBound)
	}
	if !strings.Contains(page, "<strong>PASSED</strong>") {
		t.Error("an all-passed run is not PASSED")
	}
}

func ExampleHTML() {
	r := &Result{Tool: "toolcert", Version: "1.0.0", Target: "./adapter", Scenarios: []Scenario{
		{Feature: "features/r20.feature", Name: "one unexpected property", Status: Passed},
	}}
	r.Tally()
	var page strings.Builder
	if err := HTML(&page, r); err != nil {
		fmt.Println(err)
	}
	fmt.Println(strings.Contains(page.String(), "<strong>PASSED</strong>"))
	// Output: true
}

// TestHTMLBaselineAgreesWithVerdict: a scenario or case the baseline lists
// that passed fails the run, so its badge is a failure's and its feature
// counts it failed; a listed failure does not, so it is counted apart.
func TestHTMLBaselineAgreesWithVerdict(t *testing.T) {
	r := withoutSkip(sample())
	b := &Baseline{Scenarios: []Expected{{ID: passingID}, {ID: failingID}}, Cases: []Expected{{ID: failedCase}, {ID: "run_status/failed/extra_property"}}}
	r.BaselineUnmatched = b.Apply(r)
	page := renderHTML(t, r)
	if err := checkHTMLPage(page); err != nil {
		t.Fatalf("page does not parse back: %v", err)
	}
	for _, want := range []string{
		"<strong>FAILED</strong>",
		`features/closed_objects.feature <span class="counts">0 passed, 1 failed, 0 skipped</span>`,
		`<details class="scenario failed" open><summary><span class="badge failed">unexpected pass: remove it from the baseline</span> an extra top-level property is rejected`,
		`features/leaks.feature <span class="counts">0 passed, 0 failed, 1 failed as the baseline expects, 0 skipped</span>`,
		`<span class="badge expected">expected failure (baseline)</span> a message is never forwarded`,
		`<div class="case"><span class="badge failed">unexpected pass: remove it from the baseline</span> <code>run_status/failed/extra_property</code>`,
		`<div class="case"><span class="badge expected">expected failure (baseline)</span> <code>run_status/failed/nan/attempt</code>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, `<span class="badge passed">`) {
		t.Error("a passed badge is shown, but every pass of this run is one the baseline lists as failing")
	}
}

// TestHTMLControls: the controls section counts each state and shows each
// control's badge, link, counts and first failures.
func TestHTMLControls(t *testing.T) {
	page := renderHTML(t, controlSample())
	if err := checkHTMLPage(page); err != nil {
		t.Fatalf("page does not parse back: %v", err)
	}
	for _, want := range []string{
		`<h2>Controls</h2>`,
		`0 evidenced, <span class="bad">3 violated</span>, 2 not exercised`,
		`<tr class="failed"><td><code>CWE-436</code> <a href="https://cwe.mitre.org/data/definitions/436.html">Interpretation Conflict</a><ul class="violations"><li><code>scenario features/duplicate_members.feature:14</code></li></ul></td><td><span class="badge failed">violated</span></td><td class="n">2</td><td class="n">1</td><td>CWE-436</td></tr>`,
		`<tr class="none"><td><code>LLM06:2025</code> <a href="https://genai.owasp.org/llmrisk/llm062025-excessive-agency/">Excessive Agency</a></td><td><span class="badge none">not exercised</span></td>`,
		`<td>RFC 8259 section 4</td>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(renderHTML(t, sample()), "<h2>Controls</h2>") {
		t.Error("a run without controls shows a controls section")
	}
}
