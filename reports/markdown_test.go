package reports

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// renderMarkdown renders r and splits the report into the text outside
// code fences and the text inside them, failing on an unclosed fence.
func renderMarkdown(tb testing.TB, r *Result) (outside, inside string) {
	tb.Helper()
	var buf bytes.Buffer
	if err := Markdown(&buf, r); err != nil {
		tb.Fatalf("Markdown: %v", err)
	}
	if !utf8.Valid(buf.Bytes()) {
		tb.Errorf("report.md is not valid UTF-8")
	}
	var out, in strings.Builder
	fence := ""
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		switch {
		case fence == "" && strings.HasPrefix(line, "```"):
			fence = line[:mdLongestRun(line, '`')]
			out.WriteString(line)
		case fence != "" && strings.TrimRight(line, " \n") != "" && strings.Trim(strings.TrimSpace(line), "`") == "" &&
			len(strings.TrimSpace(line)) >= len(fence):
			fence = ""
			out.WriteString(line)
		case fence != "":
			in.WriteString(line)
		default:
			out.WriteString(line)
		}
	}
	if fence != "" {
		tb.Fatalf("report.md ends inside a code fence:\n%s", buf.String())
	}
	return out.String(), in.String()
}

func TestMarkdownParts(t *testing.T) {
	r := sample()
	outside, inside := renderMarkdown(t, r)
	for _, want := range []string{
		"# toolcert report: in-process reference", "toolcert `test`, seed `42`", "**❌ FAILED**",
		"| Scenarios passed | 1 of 5 |", "| Canary leaks | 1 |", "## Failures",
		"Reproduce: `toolcert run --case run_status/failed/nan/attempt --seed 42`",
		"<details>", "</details>",
	} {
		if !strings.Contains(outside, want) {
			t.Errorf("report.md lacks %q:\n%s", want, outside)
		}
	}
	for _, sc := range r.Scenarios {
		if !strings.Contains(outside, mdEscape(sc.Name)) {
			t.Errorf("report.md does not name scenario %q", sc.Name)
		}
	}
	for _, want := range []string{"canary leaked\nsecond line\n", "-failure\n+success\n"} {
		if !strings.Contains(inside, want) {
			t.Errorf("report.md does not fence %q", want)
		}
	}
	_, summary, _ := strings.Cut(outside, "## Summary\n\n")
	summary, levels, _ := strings.Cut(summary, "\n\n")
	for _, line := range strings.Split(summary, "\n") {
		if strings.Count(line, "|")-strings.Count(line, `\|`) != 3 {
			t.Errorf("summary row %q does not have two cells", line)
		}
	}
	for _, want := range []string{"| Scenarios strict only (level safe does not judge them) | 1 |", "| Marks (refusable answers accepted and shown to the agent) | 1 |",
		"| **safe** (certified) | 1 of 5 | 1 | 1 | 1 | 1 | 1 of 2 | 1 | 0 |", "| strict | 1 of 5 | 2 | 1 | 1 | 0 | 0 of 2 | 2 | 0 |"} {
		if !strings.Contains(summary+"\n"+levels, want) {
			t.Errorf("report.md's summary or levels lack %q:\n%s\n\n%s", want, summary, levels)
		}
	}
}

func TestMarkdownVerdict(t *testing.T) {
	tests := []struct {
		name string
		s    Summary
		want string
	}{
		{"every scenario passed", Summary{Scenarios: 2, Passed: 2}, "✅ PASSED"},
		{"a failure fails", Summary{Scenarios: 2, Passed: 1, Failed: 1}, "❌ FAILED"},
		{"a skip is not a pass", Summary{Scenarios: 2, Passed: 1, Skipped: 1}, "❌ FAILED"},
		{"not applicable is no failure", Summary{Scenarios: 2, Passed: 1, NotApplicable: 1}, "✅ PASSED"},
		{"a failed case fails", Summary{Scenarios: 1, Passed: 1, Cases: 1, CasesFailed: 1}, "❌ FAILED"},
		{"failures the baseline expects pass", Summary{Scenarios: 1, Failed: 1, ExpectedFailures: 1, Cases: 1, CasesFailed: 1, CasesExpected: 1}, "✅ PASSED"},
		{"an unexpected pass fails", Summary{Scenarios: 1, Passed: 1, UnexpectedPasses: 1}, "❌ FAILED"},
		{"an interrupted run says so above all", Summary{Scenarios: 2, Failed: 1, Skipped: 1, Interrupted: true}, "⚠️ INTERRUPTED"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, why := mdVerdict(tt.s); got != tt.want {
				t.Errorf("mdVerdict(%+v) = %q (%v), want %q", tt.s, got, why, tt.want)
			}
		})
	}
}

func TestMarkdownBaselineAndCoverage(t *testing.T) {
	r := sample()
	r.Coverage = BuildCoverage(r.Scenarios, []string{"extra_property", "nan", "bom"})
	(&Baseline{Cases: []Expected{{ID: "run_status/failed/nan/attempt"}, {ID: "gone"}}}).Apply(r)
	r.BaselineUnmatched = []string{"gone"}
	r.Summary.TargetRestarts = 2
	outside, _ := renderMarkdown(t, r)
	for _, want := range []string{
		"#### ☑️ EXPECTED FAILURE (baseline): case `run_status/failed/nan/attempt`",
		"| Expected case failures (baseline) | 1 |", "| Baseline entries that matched nothing | 1 |",
		"| Target restarts | 2 |",
		"## Coverage", "| Operator | run\\_status |", "| extra\\_property | 1/1 |", "| nan | **FAIL** 0/1 |",
		"Not exercised: bom.",
	} {
		if !strings.Contains(outside, want) {
			t.Errorf("report.md lacks %q:\n%s", want, outside)
		}
	}
}

func TestMarkdownHostileText(t *testing.T) {
	r := sample()
	r.Target = "evil | <b>target</b> [x](javascript:alert(1))"
	r.Scenarios[1].Name = "*bold* <img src=x onerror=alert(1)> `code`"
	r.Scenarios[1].Error += hostile + "\n````\n# injected heading\n</details>"
	r.Scenarios[1].Evidence[0].Message += hostile
	r.Scenarios[1].Cases[1].Evidence[0].Message = hostile
	r.Scenarios[1].Cases[1].Reproducer = "toolcert run --case `x` " + hostile
	outside, inside := renderMarkdown(t, r)
	text := withoutCodeSpans(strings.ReplaceAll(outside, `\<`, ""))
	for _, bad := range []string{"<script", "<img", "<b>", "\x1b", "# injected"} {
		if strings.Contains(text, bad) {
			t.Errorf("outside code fences, report.md holds %q:\n%s", bad, outside)
		}
	}
	if strings.Count(outside, "</details>") != 1 {
		t.Errorf("report.md closes <details> more than once outside fences:\n%s", outside)
	}
	if !strings.Contains(inside, "# injected heading") || strings.ContainsRune(inside, 0x1b) {
		t.Errorf("the hostile error is not fenced whole, or keeps its escapes:\n%s", inside)
	}
	if !strings.Contains(outside, "# toolcert report: evil \\| \\<b\\>target\\</b\\> \\[x\\](javascript:alert(1))") {
		t.Errorf("the target is not escaped:\n%s", outside)
	}
}

// withoutCodeSpans drops the inline code spans of each line: inside them
// "<" is literal text, as CommonMark says.
func withoutCodeSpans(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '`' {
			b.WriteByte(s[i])
			i++
			continue
		}
		n := len(s[i:]) - len(strings.TrimLeft(s[i:], "`"))
		delim := strings.Repeat("`", n)
		end := strings.Index(s[i+n:], delim)
		if end < 0 || strings.Contains(s[i+n:i+n+end], "\n") {
			b.WriteString(delim)
			i += n
			continue
		}
		i += n + end + n
	}
	return b.String()
}

func TestMdCode(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain text takes one backtick", "a b", "`a b`"},
		{"a backtick run takes a longer delimiter", "a `` b", "```a `` b```"},
		{"a backtick at an end is padded", "`a", "`` `a ``"},
		{"newlines and escapes become one line", "a\n\x1b[1mb", "`a b`"},
		{"empty text says so", "", "(none)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mdCode(tt.in); got != tt.want {
				t.Errorf("mdCode(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestStripTerminal(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain text is kept", "a\tb\nc", "a\tb\nc"},
		{"a CSI color goes", "\x1b[1;31mred\x1b[0m", "red"},
		{"an OSC hyperlink goes with its terminator", "\x1b]8;;http://x\x07link\x1b]8;;\x1b\\", "link"},
		{"a two-byte escape goes", "\x1bcreset", "reset"},
		{"an escape cut at the end goes", "a\x1b[3", "a"},
		{"control characters and carriage returns go", "a\x00b\rc\x7f", "abc"},
		{"invalid UTF-8 becomes U+FFFD", "a\xffb", "a\uFFFDb"},
		{"bidi overrides show as escapes", "a\u202eb\u2066c", `a\u202eb\u2066c`},
		{"line separators and zero-width characters show", "a\u2028b\u200bc\U000e0041", `a\u2028b\u200bc\U000e0041`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := stripTerminal(tt.in); got != tt.want {
				t.Errorf("stripTerminal(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestClipText(t *testing.T) {
	tests := []struct {
		name, in, want string
		lines, bytes   int
	}{
		{"short text is kept whole", "a\nb", "a\nb", 2, 10},
		{"extra lines are cut and said so", "a\nb\nc", "a\nb\n… (truncated)", 2, 10},
		{"extra bytes are cut at a rune boundary", "aé", "a\n… (truncated)", 5, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := clipText(tt.in, tt.lines, tt.bytes); got != tt.want {
				t.Errorf("clipText(%q, %d, %d) = %q, want %q", tt.in, tt.lines, tt.bytes, got, tt.want)
			}
		})
	}
}

func ExampleMarkdown() {
	r := &Result{Tool: "toolcert", Version: "v1.0.0", Seed: 7, Target: "my-adapter", Scenarios: []Scenario{
		{ID: "features/r20.feature: one unexpected property", Feature: "features/r20.feature", Name: "one unexpected property", Status: Passed},
	}}
	r.Tally()
	var b strings.Builder
	if err := Markdown(&b, r); err != nil {
		fmt.Println(err)
	}
	fmt.Println(strings.Join(strings.Split(b.String(), "\n")[:5], "\n"))
	// Output:
	// # toolcert report: my-adapter
	//
	// toolcert `v1.0.0`, seed `7`, level `strict`, took 0.000s.
	//
	// **✅ PASSED**.
}

// hugeRun is a failing run whose report.md would be far over a comment:
// n failed scenarios, each with a long error, evidence and failed cases,
// and as many passing ones.
func hugeRun(n int) *Result {
	r := &Result{Tool: "toolcert", Version: "v", Target: "big"}
	long := strings.Repeat("the adapter said something long\n", 40)
	for i := range n {
		sc := Scenario{ID: fmt.Sprintf("f.feature:%d", i), Feature: "f.feature", Name: fmt.Sprintf("failure %03d", i),
			Status: Failed, Error: long, Evidence: []Evidence{{Kind: EvidenceLeak, Message: long, Diff: "-a\n+b"}}}
		for j := range 10 {
			sc.Cases = append(sc.Cases, Case{ID: fmt.Sprintf("tool/failed/op%d", j), Tool: "tool", Operator: "op", Status: Failed,
				Reproducer: "toolcert run --case x --seed 1", Evidence: []Evidence{{Kind: EvidenceMismatch, Message: "😀 mismatch", Diff: long}}})
		}
		r.Scenarios = append(r.Scenarios, sc, Scenario{ID: fmt.Sprintf("g.feature:%d", i), Feature: "g.feature",
			Name: fmt.Sprintf("pass %03d", i), Status: Passed})
	}
	r.Tally()
	return r
}

// TestMarkdownFitsAComment: a report that would be far over a
// pull-request comment stays within its budget, keeps the verdict, the
// summary and the first failure whole, leaves out the least important
// parts first, and says what it left out and where the rest is.
func TestMarkdownFitsAComment(t *testing.T) {
	tests := []struct {
		name     string
		r        *Result
		keep     []string // in the report
		leaveOut []string // named in the note
	}{
		{"many failures", hugeRun(60),
			[]string{"**❌ FAILED**", "| Scenarios failed | 60 |", "### ❌ FAILED: failure 000", "#### ❌ FAILED: case `tool/failed/op9`"},
			[]string{"of the 60 failures", "the list of every scenario"}},
		{"many passing scenarios", func() *Result {
			r := hugeRun(1)
			for i := range 3000 {
				r.Scenarios = append(r.Scenarios, Scenario{ID: fmt.Sprint(i), Feature: "h.feature", Name: fmt.Sprintf("a passing scenario %d", i), Status: Passed})
			}
			r.Tally()
			return r
		}(), []string{"### ❌ FAILED: failure 000", "#### ❌ FAILED: case `tool/failed/op9`"}, []string{"it leaves out the list of every scenario."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			outside, _ := renderMarkdown(t, tt.r) // fails on an unclosed fence
			var buf bytes.Buffer
			if err := Markdown(&buf, tt.r); err != nil {
				t.Fatal(err)
			}
			got := buf.String()
			if n := mdLen(got); n > mdBudget {
				t.Errorf("report.md is %d characters, want at most %d", n, mdBudget)
			}
			for _, want := range append(tt.keep, "> [!NOTE]", "`report.html`", "`results.json`") {
				if !strings.Contains(got, want) {
					t.Errorf("report.md lacks %q", want)
				}
			}
			note := outside[strings.Index(outside, "> [!NOTE]"):]
			note = note[:strings.Index(note, "\n\n")]
			for _, want := range tt.leaveOut {
				if !strings.Contains(note, want) {
					t.Errorf("the note does not say it leaves out %q:\n%s", want, note)
				}
			}
			if strings.Index(got, "> [!NOTE]") > strings.Index(got, "## Failures") {
				t.Errorf("the note comes after the failures: a reader of a long comment would not see it")
			}
		})
	}
}

func TestMarkdownShortHasNoNote(t *testing.T) {
	outside, _ := renderMarkdown(t, sample())
	if strings.Contains(outside, "[!NOTE]") {
		t.Errorf("a report within the budget says it was shortened:\n%s", outside)
	}
}

func TestMdLen(t *testing.T) {
	for in, want := range map[string]int{"": 0, "abc": 3, "é✅": 2, "😀": 2, "a\U000e0041": 3} {
		if got := mdLen(in); got != want {
			t.Errorf("mdLen(%q) = %d, want %d: characters beyond U+FFFF count twice, as UTF-16 counts them", in, got, want)
		}
	}
}
