package reports

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// The bounds of one block of adapter text (an error, a message, a diff) in
// the Markdown report: a single runaway error must not fill it.
const (
	mdMaxLines = 60
	mdMaxBytes = 8 << 10
)

// mdCommentLimit is the most characters a GitHub pull-request comment
// holds; mdBudget is what report.md may use of it, the rest a margin for
// the bot or action that posts it (a title, a marker comment). Characters
// are counted as [mdLen] counts them.
const (
	mdCommentLimit = 65536
	mdBudget       = mdCommentLimit - 5536
)

// Markdown renders r as a Markdown report for a pull-request comment or a
// sign-off document, at the level r certifies (named in its first lines):
// the verdict, a summary table, each level's counts, every failure with
// its evidence that counts at that level and reproducers, the controls,
// the not-applicable scenarios with their reasons, the strict-only
// scenarios and cases, the coverage folded to operators x tools, and a
// collapsed list of every scenario. Adapter text is escaped, fenced or
// stripped of terminal escapes: it cannot inject Markdown or HTML.
//
// The report fits a pull-request comment: past mdBudget characters it
// leaves out the least important parts first (the list of every scenario,
// then the coverage matrix, then the strict-only and the not-applicable
// lists, then the last failures and cases), never the verdict, the
// summary or the first failure, and says under the summary what it left
// out and where the full results are (report.html, results.json).
func Markdown(w io.Writer, r *Result) error {
	var head strings.Builder
	mdHeader(&head, r)
	mdSummary(&head, r)
	mdLevels(&head, r)
	doc := mdDoc{
		head:     head.String(),
		failures: mdFailures(r.Scenarios, r.CertifiedLevel()),
		optional: []mdPart{
			{name: "the controls", text: mdText(func(b *strings.Builder) { mdControls(b, r.Controls) })},
			{name: "the not-applicable scenarios", text: mdText(func(b *strings.Builder) { mdNotApplicable(b, r.Scenarios) })},
			{name: "the strict-only scenarios and cases", text: mdText(func(b *strings.Builder) { mdStrictOnly(b, r.Scenarios) })},
			{name: "the coverage matrix", text: mdText(func(b *strings.Builder) { mdCoverage(b, r.Coverage) })},
			{name: "the list of every scenario", text: mdText(func(b *strings.Builder) { mdScenarioList(b, r.Scenarios) })},
		},
	}
	if _, err := io.WriteString(w, doc.fit(mdBudget)); err != nil {
		return fmt.Errorf("write markdown report: %w", err)
	}
	return nil
}

// mdText returns what write writes.
func mdText(write func(*strings.Builder)) string {
	var b strings.Builder
	write(&b)
	return b.String()
}

// mdLen counts the characters of s as a pull-request comment's limit may:
// in UTF-16 code units, so a character beyond U+FFFF counts twice. That is
// never fewer than the code points GitHub counts.
func mdLen(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// mdDoc is the report in parts of different importance: the head (title,
// verdict, summary) is always kept; the failures are kept in order, piece
// by piece, while they fit; the optional parts, most important first, are
// left out from the last.
type mdDoc struct {
	head     string
	failures []mdPiece
	optional []mdPart
}

// mdPart is an optional section and the name its omission is told by.
type mdPart struct{ name, text string }

// mdPiece is one piece of the failures section: a scenario's heading,
// error and evidence, or one of its cases. Scenario numbers the notable
// scenario the piece belongs to; Heading marks its first piece.
type mdPiece struct {
	text     string
	scenario int
	heading  bool
}

// fit returns the report within budget characters.
func (d mdDoc) fit(budget int) string {
	size := mdLen(d.head)
	for _, p := range d.failures {
		size += mdLen(p.text)
	}
	keep := len(d.optional)
	for _, p := range d.optional {
		size += mdLen(p.text)
	}
	if size <= budget {
		return d.join(len(d.failures), keep, "")
	}
	for keep > 0 && size+mdNoteReserve > budget {
		keep--
		size -= mdLen(d.optional[keep].text)
	}
	pieces := len(d.failures)
	for pieces > 1 && size+mdNoteReserve > budget {
		pieces--
		size -= mdLen(d.failures[pieces].text)
	}
	return d.join(pieces, keep, d.note(pieces, keep))
}

// mdNoteReserve is room kept for the note that says what was left out.
const mdNoteReserve = 1024

// join writes the head, the note, the first pieces of the failures and the
// first keep optional parts.
func (d mdDoc) join(pieces, keep int, note string) string {
	var b strings.Builder
	b.WriteString(d.head)
	b.WriteString(note)
	for _, p := range d.failures[:pieces] {
		b.WriteString(p.text)
	}
	if pieces < len(d.failures) {
		b.WriteString("*… the rest of the failures is left out here: see the full report.*\n\n")
	}
	for _, p := range d.optional[:keep] {
		b.WriteString(p.text)
	}
	return b.String()
}

// note says what the report left out and where to find it all.
func (d mdDoc) note(pieces, keep int) string {
	var left []string
	if pieces < len(d.failures) {
		left = append(left, d.failuresLeftOut(pieces))
	}
	for i := len(d.optional) - 1; i >= keep; i-- {
		if d.optional[i].text != "" {
			left = append(left, d.optional[i].name)
		}
	}
	return fmt.Sprintf("> [!NOTE]\n> This report is shortened to fit a pull-request comment (%d characters): it leaves out %s. "+
		"The full results are in `report.html` (`--format html`) and `results.json`, beside this file.\n\n",
		mdCommentLimit, strings.Join(left, ", "))
}

// failuresLeftOut says how much of the failures section the first pieces
// leave out.
func (d mdDoc) failuresLeftOut(pieces int) string {
	total, shown := 0, 0
	for i, p := range d.failures {
		if p.heading {
			total++
			if i < pieces {
				shown++
			}
		}
	}
	partial := !d.failures[pieces].heading
	switch {
	case shown == total:
		return "the last evidence and generated cases of the last failure"
	case partial:
		return fmt.Sprintf("%d of the %d failures, and the last evidence and cases of the one before them", total-shown, total)
	}
	return fmt.Sprintf("%d of the %d failures", total-shown, total)
}

// mdHeader writes the title and the verdict line.
func mdHeader(b *strings.Builder, r *Result) {
	fmt.Fprintf(b, "# toolcert report: %s\n\n", mdEscape(r.Target))
	fmt.Fprintf(b, "toolcert %s, seed %s, level %s", mdCode(r.Version), mdCode(fmt.Sprint(r.Seed)), mdCode(string(r.CertifiedLevel())))
	if !r.StartedAt.IsZero() {
		fmt.Fprintf(b, ", started %s", r.StartedAt.UTC().Format(time.RFC3339))
	}
	fmt.Fprintf(b, ", took %ss.\n\n", secs(r.Duration))
	verdict, why := mdVerdict(r.Summary)
	fmt.Fprintf(b, "**%s**", verdict)
	if len(why) > 0 {
		fmt.Fprintf(b, ": %s", strings.Join(why, "; "))
	}
	b.WriteString(".\n\n")
}

// mdVerdict is the run's verdict ([Summary.Verdict]) as the report's
// headline, and why; a pass says why only when scenarios did not apply or
// scenarios or cases were strict only, so that the headline does not
// claim more than the run certified.
func mdVerdict(s Summary) (string, []string) {
	v, why := s.Verdict()
	word := map[Verdict]string{VerdictPassed: "✅ PASSED", VerdictFailed: "❌ FAILED", VerdictInterrupted: "⚠️ INTERRUPTED"}[v]
	if v == VerdictPassed && s.NotApplicable+s.StrictOnly+s.CasesStrictOnly == 0 {
		why = nil
	}
	return word, why
}

// mdSummary writes the summary table, at the level the run certifies;
// not-applicable, strict-only, baseline and restart rows appear only when
// the run has any.
func mdSummary(b *strings.Builder, r *Result) {
	s := r.Summary
	b.WriteString("## Summary\n\n| | Count |\n|---|---:|\n")
	row := func(name string, n int) { fmt.Fprintf(b, "| %s | %d |\n", name, n) }
	fmt.Fprintf(b, "| Scenarios passed | %d of %d |\n", s.Passed, s.Scenarios)
	row("Scenarios failed", s.Failed)
	row("Scenarios skipped", s.Skipped)
	if s.NotApplicable > 0 {
		row("Scenarios not applicable (neither passed nor failed)", s.NotApplicable)
	}
	if s.StrictOnly > 0 {
		row("Scenarios strict only (level safe does not judge them)", s.StrictOnly)
	}
	fmt.Fprintf(b, "| Generated cases passed | %d of %d |\n", s.CasesPassed, s.Cases)
	row("Generated cases failed", s.CasesFailed)
	if s.CasesStrictOnly > 0 {
		row("Generated cases strict only (level safe does not judge them)", s.CasesStrictOnly)
	}
	row("Canary leaks", s.Leaks)
	row("Marks (refusable answers accepted and shown to the agent)", s.Marks)
	row("Blocked calls", s.Blocked)
	row("Upstream requests made by blocked calls", s.BlockedRequests)
	row("Upstream requests in all", s.UpstreamRequests)
	if s.ExpectedFailures+s.CasesExpected+s.UnexpectedPasses+len(r.BaselineUnmatched) > 0 {
		row("Expected scenario failures (baseline)", s.ExpectedFailures)
		row("Expected case failures (baseline)", s.CasesExpected)
		row("Unexpected passes (baseline)", s.UnexpectedPasses)
		row("Baseline entries that matched nothing", len(r.BaselineUnmatched))
	}
	if s.TargetRestarts > 0 {
		row("Target restarts", s.TargetRestarts)
	}
	b.WriteString("\n")
}

// mdLevels writes each level's counts, the certified one marked, when
// the run has them.
func mdLevels(b *strings.Builder, r *Result) {
	s := r.Summary
	if len(s.Levels) == 0 {
		return
	}
	b.WriteString("By level (docs/protocol.md, \"Levels\"):\n\n")
	b.WriteString("| Level | Scenarios passed | failed | skipped | not applicable | strict only | Generated cases passed | failed | strict only |\n" +
		"|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, ls := range s.Levels {
		name := string(ls.Level)
		if ls.Level == r.CertifiedLevel() {
			name = "**" + name + "** (certified)"
		}
		fmt.Fprintf(b, "| %s | %d of %d | %d | %d | %d | %d | %d of %d | %d | %d |\n", name, ls.Passed, ls.Scenarios,
			ls.Failed, ls.Skipped, ls.NotApplicable, ls.StrictOnly, ls.CasesPassed, ls.Cases, ls.CasesFailed, ls.CasesStrictOnly)
	}
	b.WriteString("\n")
}

// mdFailures returns, as pieces, each scenario that did not simply pass
// at level l: failed, skipped, unexpectedly passing, or holding a case
// that did. A not-applicable or strict-only scenario is no failure:
// [mdNotApplicable] and [mdStrictOnly] list it.
func mdFailures(scs []Scenario, l Level) []mdPiece {
	var out []mdPiece
	for _, sc := range scs {
		if !mdNotable(sc) {
			continue
		}
		n := len(out)
		for i, text := range mdScenario(sc, l) {
			out = append(out, mdPiece{text: text, scenario: n, heading: i == 0})
		}
	}
	if len(out) > 0 {
		out[0].text = "## Failures\n\n" + out[0].text
	}
	return out
}

// mdNotable reports whether sc belongs in the failures section.
func mdNotable(sc Scenario) bool {
	if sc.Status != Passed && sc.Status != NotApplicable && sc.Status != StrictOnly || sc.Baseline == UnexpectedPass {
		return true
	}
	for _, c := range sc.Cases {
		if mdCaseNotable(c) {
			return true
		}
	}
	return false
}

// mdCaseNotable reports whether c belongs in the failures section: it
// failed, or is an unexpected pass.
func mdCaseNotable(c Case) bool {
	return c.Status != Passed && c.Status != StrictOnly || c.Baseline == UnexpectedPass
}

// mdScenario returns one notable scenario in pieces: its heading and
// error, each evidence that counts at level l, and each notable generated
// case with its reproducer.
func mdScenario(sc Scenario, l Level) []string {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s: %s\n\n", mdLabel(sc.Status, sc.Baseline), mdEscape(sc.Name))
	fmt.Fprintf(&b, "Feature %s, scenario %s", mdCode(sc.Feature), mdCode(sc.ID))
	if len(sc.Cases) > 0 {
		passed, so := 0, 0
		for _, c := range sc.Cases {
			switch c.Status {
			case Passed:
				passed++
			case StrictOnly:
				so++
			}
		}
		fmt.Fprintf(&b, ", generated cases passed: %d of %d", passed, len(sc.Cases))
		if so > 0 {
			fmt.Fprintf(&b, " (strict only: %d)", so)
		}
	}
	if n := len(sc.SkippedCases); n > 0 {
		fmt.Fprintf(&b, ", generated cases not run (a step before theirs failed): %d", n)
	}
	b.WriteString(".\n\n")
	switch {
	case sc.Error != "":
		mdFence(&b, "text", sc.Error)
	case sc.Status == Skipped:
		b.WriteString("The scenario did not run to its end, and a skip is not a pass.\n\n")
	}
	pieces := []string{b.String()}
	for _, e := range evidenceAt(sc.Evidence, l) {
		pieces = append(pieces, mdText(func(b *strings.Builder) { mdEvidence(b, []Evidence{e}) }))
	}
	if sc.Status == Failed {
		pieces = append(pieces, mdText(func(b *strings.Builder) { mdDetail(b, sc.Saw, sc.Requests, sc.TargetOutput) }))
	}
	for _, c := range sc.Cases {
		if mdCaseNotable(c) {
			pieces = append(pieces, mdText(func(b *strings.Builder) { mdCase(b, c, l) }))
		}
	}
	return pieces
}

// mdStrictOnly writes the scenarios and generated cases that level safe
// does not judge, each with what level strict found.
func mdStrictOnly(b *strings.Builder, scs []Scenario) {
	so, cases := strictOnly(scs), strictOnlyCases(scs)
	if len(so)+len(cases) == 0 {
		return
	}
	b.WriteString("## Strict only\n\nLevel safe does not judge these scenarios (tagged @strict) and generated cases (rejects of the corpus that may be read past): " +
		"they are neither passes nor failures, and they do not fail the run. Certify level strict to judge them.\n\n")
	for _, sc := range so {
		fmt.Fprintf(b, "- **%s** (%s): level strict: %s\n", mdEscape(sc.Name), mdCode(sc.Feature), statusLabel(sc.StatusAt(LevelStrict)))
	}
	for _, c := range cases {
		fmt.Fprintf(b, "- case %s of **%s**: level strict: %s\n", mdCode(c.Case.ID), mdEscape(c.Scenario.Name), statusLabel(c.Case.StatusAt(LevelStrict)))
	}
	b.WriteString("\n")
}

// mdNotApplicable writes the scenarios that did not apply to the target,
// each with its feature and reason.
func mdNotApplicable(b *strings.Builder, scs []Scenario) {
	na := notApplicable(scs)
	if len(na) == 0 {
		return
	}
	b.WriteString("## Not applicable\n\nThese scenarios need a capability the target lacks: they are neither passes nor failures, and they do not fail the run.\n\n")
	for _, sc := range na {
		reason := clipText(stripTerminal(notApplicableReason(sc)), mdMaxLines, mdMaxBytes)
		fmt.Fprintf(b, "- **%s** (%s): %s\n", mdEscape(sc.Name), mdCode(sc.Feature), mdEscape(reason))
	}
	b.WriteString("\n")
}

// mdCase writes one notable generated case, with its evidence that
// counts at level l.
func mdCase(b *strings.Builder, c Case, l Level) {
	fmt.Fprintf(b, "#### %s: case %s\n\n", mdLabel(c.Status, c.Baseline), mdCode(c.ID))
	field := "the whole document"
	if c.Field != "" {
		field = "field " + mdCode(c.Field)
	}
	fmt.Fprintf(b, "Tool %s, operator %s, %s.", mdCode(c.Tool), mdCode(c.Operator), field)
	if c.Reproducer != "" {
		fmt.Fprintf(b, " Reproduce: %s", mdCode(c.Reproducer))
	}
	b.WriteString("\n\n")
	mdEvidence(b, evidenceAt(c.Evidence, l))
	mdDetail(b, c.Saw, c.Requests, c.TargetOutput)
}

// mdDetail writes what the agent saw, the upstream requests and the end
// of what the target printed, in one fenced block, when there is any.
func mdDetail(b *strings.Builder, saw []Part, reqs []Request, output string) {
	if lines := detailLines(saw, reqs, output, 1024, 4, 8, 10, 1024); len(lines) > 0 {
		mdFence(b, "text", strings.Join(lines, "\n"))
	}
}

// mdLabel names a status with its baseline mark.
func mdLabel(s Status, mark string) string {
	switch {
	case mark == ExpectedFailure:
		return "☑️ EXPECTED FAILURE (baseline)"
	case mark == UnexpectedPass:
		return "❌ UNEXPECTED PASS (remove it from the baseline)"
	case s == Passed:
		return "✅ PASSED"
	case s == Skipped:
		return "⏭️ SKIPPED"
	case s == NotApplicable:
		return "➖ NOT APPLICABLE"
	case s == StrictOnly:
		return "➖ STRICT ONLY"
	}
	return "❌ FAILED"
}

// mdEvidence writes each evidence: its kind (and the level it is about,
// when one), its message, its diff.
func mdEvidence(b *strings.Builder, ev []Evidence) {
	for _, e := range ev {
		msg := stripTerminal(e.Message)
		if strings.Contains(strings.TrimSpace(msg), "\n") {
			fmt.Fprintf(b, "Evidence **%s**:\n\n", mdEscape(evidenceKind(e)))
			mdFence(b, "text", msg)
		} else {
			fmt.Fprintf(b, "Evidence **%s**: %s\n\n", mdEscape(evidenceKind(e)), mdEscape(msg))
		}
		if e.Diff != "" {
			mdFence(b, "diff", e.Diff)
		}
	}
}

// mdCoverage writes the coverage matrix folded to operators x tools: each
// cell is passed/cases over the fields of the tool, FAIL in front when a
// case failed, "-" when the operator reached no field of the tool.
// Operators that ran no case are listed below the table.
func mdCoverage(b *strings.Builder, cells []Cell) {
	if len(cells) == 0 {
		return
	}
	f := FoldCoverage(cells)
	b.WriteString("## Coverage\n\n| Operator |")
	for _, t := range f.Tools {
		fmt.Fprintf(b, " %s |", mdEscape(t))
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(f.Tools)) + "\n")
	var idle []string
	for _, op := range f.Operators {
		if !f.Exercised(op) {
			idle = append(idle, mdEscape(op))
			continue
		}
		fmt.Fprintf(b, "| %s |", mdEscape(op))
		for _, t := range f.Tools {
			fmt.Fprintf(b, " %s |", mdCell(f.Cell(op, t)))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	if len(idle) > 0 {
		fmt.Fprintf(b, "Not exercised: %s.\n\n", strings.Join(idle, ", "))
	}
}

// mdCell is a folded cell with FAIL in bold.
func mdCell(c FoldCell) string {
	if c.Status() == CellFailed {
		return "**FAIL** " + fmt.Sprintf("%d/%d", c.Passed, c.Cases)
	}
	return c.String()
}

// mdScenarioList writes every scenario with its status, collapsed.
func mdScenarioList(b *strings.Builder, scs []Scenario) {
	fmt.Fprintf(b, "<details>\n<summary>All scenarios (%d)</summary>\n\n", len(scs))
	for _, sc := range scs {
		fmt.Fprintf(b, "- %s: %s (%s)\n", mdLabel(sc.Status, sc.Baseline), mdEscape(sc.Name), mdEscape(sc.Feature))
	}
	b.WriteString("\n</details>\n")
}

// mdFence writes s as a fenced code block with the given info string. The
// fence is longer than any backtick run in s, so no line of s closes it.
func mdFence(b *strings.Builder, info, s string) {
	s = strings.TrimRight(clipText(stripTerminal(s), mdMaxLines, mdMaxBytes), "\n")
	fence := strings.Repeat("`", max(3, mdLongestRun(s, '`')+1))
	fmt.Fprintf(b, "%s%s\n%s\n%s\n\n", fence, info, s, fence)
}

// mdCode writes s as an inline code span on one line, delimited by more
// backticks than any run in s.
func mdCode(s string) string {
	s = strings.Join(strings.Fields(stripTerminal(s)), " ")
	if s == "" {
		return "(none)"
	}
	delim := strings.Repeat("`", mdLongestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return delim + s + delim
}

// mdEscape makes s one line of literal Markdown text: terminal escapes and
// control characters go, whitespace runs become one space, and the
// characters that Markdown or HTML give a meaning are backslash-escaped.
func mdEscape(s string) string {
	s = strings.Join(strings.Fields(stripTerminal(s)), " ")
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>|~#&!", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func mdLongestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	return longest
}

// mdControls writes the controls as a table: each with its state and its
// counts at the level the run certifies, the violated ones first, and its
// state at each level when the run has them (docs/controls.md).
func mdControls(b *strings.Builder, controls []ControlResult) {
	if len(controls) == 0 {
		return
	}
	e, v, n := ControlCounts(controls)
	levels := len(controls[0].Levels) > 0
	fmt.Fprintf(b, "\n## Controls\n\n%d evidenced, %d violated, %d not exercised.\n\n| control | state | passed | failed |", e, v, n)
	if levels {
		b.WriteString(" by level |")
	}
	b.WriteString("\n| --- | --- | --: | --: |")
	if levels {
		b.WriteString(" --- |")
	}
	b.WriteString("\n")
	for _, status := range []string{ControlViolated, ControlEvidenced, ControlNotExercised} {
		for _, cr := range controls {
			if cr.Status != status {
				continue
			}
			fmt.Fprintf(b, "| %s %s | %s | %d | %d |", mdCode(stripTerminal(cr.ID)), mdEscape(stripTerminal(cr.Title)), status, cr.Passed, cr.Failed)
			if levels {
				fmt.Fprintf(b, " %s |", mdControlLevels(cr))
			}
			b.WriteString("\n")
		}
	}
}

// mdControlLevels says a control's state at each level: "safe evidenced,
// strict violated".
func mdControlLevels(cr ControlResult) string {
	var parts []string
	for _, cl := range cr.Levels {
		parts = append(parts, string(cl.Level)+" "+controlLabel(cl.Status))
	}
	return strings.Join(parts, ", ")
}
