package reports

import (
	"bytes"
	"cmp"
	"embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

//go:embed html.tmpl
var htmlFS embed.FS

// htmlTemplate is the page: parsed once, read-only afterwards.
var htmlTemplate = template.Must(template.New("html.tmpl").Funcs(template.FuncMap{
	"dur":     htmlDuration,
	"state":   htmlState,
	"label":   htmlLabel,
	"outcome": htmlOutcomeOf,
	"diff":    htmlDiff,
}).ParseFS(htmlFS, "html.tmpl"))

// HTML renders r as one self-contained HTML page for the person signing a
// run off, at the level r certifies (named in the banner and the run's
// details): the verdict, the counts and each level's, the controls with
// their states (and which level evidences them), the scenarios that did
// not apply to the target with their reasons, the scenarios and cases
// level safe does not judge, the scenarios by feature (failures first and
// open, passes folded), the failed generated cases with their
// reproducers, and the coverage matrix. Each scenario's badge and each
// feature's counts say what the verdict counts: an unexpected pass is a
// failure, a failure the baseline expects is not, a strict-only one
// neither; a scenario or case whose status differs at the other level
// says so. Evidence that counts at the certified level comes first, the
// rest labelled with the level it is about. The page loads nothing (no
// script, no external style, font or image) and forbids loading anything
// through its Content-Security-Policy, so it works offline and from a
// file:// URL.
//
// Every model text is escaped by html/template; the page is then made valid
// UTF-8 without control characters, its invisible characters written as
// visible escapes (see [htmlSafe]), since an adapter's output may hold any
// byte. Passed cases are counted, not listed: the page
// stays small for the thousands of cases of a full run.
func HTML(w io.Writer, r *Result) error {
	var buf bytes.Buffer
	if err := htmlTemplate.Execute(&buf, htmlPageOf(r)); err != nil {
		return fmt.Errorf("render html: %w", err)
	}
	if _, err := io.WriteString(w, htmlSafe(buf.String())); err != nil {
		return fmt.Errorf("write html: %w", err)
	}
	return nil
}

// htmlPage is what the template renders: the Result and its layout.
type htmlPage struct {
	*Result
	// Certified is the level the run certifies; LevelRows each level's
	// counts.
	Certified Level
	LevelRows []htmlLevel
	Verdict   htmlVerdict
	Started   string
	Features  []htmlFeature
	Matrix    htmlMatrix
	Controls  htmlControls
	// NotApplicableScenarios are the scenarios that did not apply to the
	// target, in the model's order.
	NotApplicableScenarios []htmlNotApplicable
	// StrictOnlyItems are the scenarios and cases level safe does not
	// judge, in the model's order.
	StrictOnlyItems []htmlStrictOnly
}

// htmlNotApplicable is a not-applicable scenario as the page lists it.
type htmlNotApplicable struct{ Name, Feature, Reason string }

// htmlStrictOnly is a strict-only scenario or case as the page lists it:
// its name (a case's ID), where it is, and its status at level strict.
type htmlStrictOnly struct{ Name, Where, Strict string }

// htmlLevel is one level's counts, as a row of the summary.
type htmlLevel struct {
	Level     Level
	Certified bool
	Counts    string
}

// htmlVerdict is the banner: PASSED, FAILED or INTERRUPTED and why.
type htmlVerdict struct {
	Word, Class string
	Reasons     []string
}

// htmlFeature is one feature's scenarios, in the order the page shows them,
// counted as the verdict counts them: Failed holds the unexpected passes,
// Expected the failures a baseline expects.
type htmlFeature struct {
	Name                                                         string
	Open                                                         bool
	Passed, Failed, Expected, Skipped, NotApplicable, StrictOnly int
	Scenarios                                                    []htmlScenario
}

// htmlScenario is a scenario with its cases split: the ones the page lists
// (failed, strict only, or marked by the baseline) and the count of the
// plain passes. Evidence is the scenario's, what counts at the certified
// level first; Other says its status at another level where that
// differs.
type htmlScenario struct {
	*Scenario
	Open     bool
	Evidence []Evidence
	Other    string
	// Detail is what the agent saw, the upstream requests and the end of
	// what the target printed, for a failed scenario ("" for none).
	Detail string
	Listed []htmlCase
	Passes int
	rank   int
}

// htmlCase is a listed case, its evidence ordered as a scenario's, and its
// status at another level where that differs.
type htmlCase struct {
	Case
	Evidence []Evidence
	Other    string
	Detail   string // as htmlScenario's, for a failed case
}

// htmlDetail joins the detail lines of a failed scenario or case.
func htmlDetail(status Status, saw []Part, reqs []Request, output string) string {
	if status != Failed {
		return ""
	}
	return strings.Join(detailLines(saw, reqs, output, 4096, 8, 20, 40, 4096), "\n")
}

// htmlOther says the statuses of levels, other than l, at which a
// scenario or case ended otherwise than status: "level strict: failed".
func htmlOther(status Status, at func(Level) Status, l Level) string {
	var parts []string
	for _, other := range Levels() {
		if st := at(other); other != l && st != status {
			parts = append(parts, "level "+string(other)+": "+statusLabel(st))
		}
	}
	return strings.Join(parts, ", ")
}

// htmlPageOf lays r out for the template.
func htmlPageOf(r *Result) htmlPage {
	return htmlPage{
		Result:    r,
		Certified: r.CertifiedLevel(),
		LevelRows: htmlLevelsOf(r),
		Verdict:   htmlVerdictOf(r.Summary),
		Started:   r.StartedAt.UTC().Format(time.RFC3339),
		Features:  htmlFeaturesOf(r.Scenarios, r.CertifiedLevel()),
		Matrix:    htmlMatrixOf(r.Coverage),
		Controls:  htmlControlsOf(r.Controls, r.CertifiedLevel()),

		NotApplicableScenarios: htmlNotApplicableOf(r.Scenarios),
		StrictOnlyItems:        htmlStrictOnlyOf(r.Scenarios),
	}
}

// htmlLevelsOf returns each level's counts, when the run has them.
func htmlLevelsOf(r *Result) []htmlLevel {
	var out []htmlLevel
	for _, ls := range r.Summary.Levels {
		out = append(out, htmlLevel{Level: ls.Level, Certified: ls.Level == r.CertifiedLevel(), Counts: levelCounts(ls)})
	}
	return out
}

// htmlStrictOnlyOf lists the scenarios and cases level safe does not
// judge, each with its status at level strict.
func htmlStrictOnlyOf(scs []Scenario) []htmlStrictOnly {
	var out []htmlStrictOnly
	for _, sc := range strictOnly(scs) {
		out = append(out, htmlStrictOnly{Name: sc.Name, Where: sc.Feature, Strict: statusLabel(sc.StatusAt(LevelStrict))})
	}
	for _, c := range strictOnlyCases(scs) {
		out = append(out, htmlStrictOnly{Name: "case " + c.Case.ID, Where: c.Scenario.Name, Strict: statusLabel(c.Case.StatusAt(LevelStrict))})
	}
	return out
}

// htmlNotApplicableOf lists the scenarios that did not apply, with why.
func htmlNotApplicableOf(scs []Scenario) []htmlNotApplicable {
	var out []htmlNotApplicable
	for _, sc := range notApplicable(scs) {
		out = append(out, htmlNotApplicable{Name: sc.Name, Feature: sc.Feature, Reason: notApplicableReason(sc)})
	}
	return out
}

// htmlVerdictOf is the banner of the run's verdict ([Summary.Verdict]).
func htmlVerdictOf(s Summary) htmlVerdict {
	v, why := s.Verdict()
	return htmlVerdict{Word: strings.ToUpper(string(v)), Class: string(v), Reasons: why}
}

// htmlFeaturesOf groups scenarios by feature, at level l. Features and
// scenarios keep the model's order, except that those needing a look come
// first: failures and baseline marks, then skips, then the scenarios that
// did not apply or are strict only, then passes.
func htmlFeaturesOf(scs []Scenario, l Level) []htmlFeature {
	var out []htmlFeature
	at := map[string]int{}
	for i := range scs {
		sc := &scs[i]
		j, ok := at[sc.Feature]
		if !ok {
			j = len(out)
			at[sc.Feature] = j
			out = append(out, htmlFeature{Name: sc.Feature})
		}
		out[j].add(sc, l)
	}
	for i := range out {
		slices.SortStableFunc(out[i].Scenarios, func(a, b htmlScenario) int { return cmp.Compare(a.rank, b.rank) })
		out[i].Open = out[i].Scenarios[0].Open
	}
	slices.SortStableFunc(out, func(a, b htmlFeature) int { return cmp.Compare(a.Scenarios[0].rank, b.Scenarios[0].rank) })
	return out
}

// add appends sc to f and counts it as the verdict does at level l: by
// status, as Tally does, but an unexpected pass as a failure and a failure
// the baseline expects apart.
func (f *htmlFeature) add(sc *Scenario, l Level) {
	switch {
	case sc.Baseline == UnexpectedPass:
		f.Failed++
	case sc.Baseline == ExpectedFailure:
		f.Expected++
	case sc.Status == Passed:
		f.Passed++
	case sc.Status == Skipped:
		f.Skipped++
	case sc.Status == NotApplicable:
		f.NotApplicable++
	case sc.Status == StrictOnly:
		f.StrictOnly++
	default:
		f.Failed++
	}
	hs := htmlScenario{Scenario: sc, rank: htmlRank(sc), Evidence: evidenceFirst(sc.Evidence, l),
		Other: htmlOther(sc.Status, sc.StatusAt, l)}
	hs.Open = hs.rank < 2
	hs.Detail = htmlDetail(sc.Status, sc.Saw, sc.Requests, sc.TargetOutput)
	for _, c := range sc.Cases {
		if c.Status == Passed && c.Baseline == "" {
			hs.Passes++
		} else {
			hs.Listed = append(hs.Listed, htmlCase{Case: c, Evidence: evidenceFirst(c.Evidence, l), Other: htmlOther(c.Status, c.StatusAt, l),
				Detail: htmlDetail(c.Status, c.Saw, c.Requests, c.TargetOutput)})
		}
	}
	f.Scenarios = append(f.Scenarios, hs)
}

// htmlRank orders scenarios on the page: 0 for a failure or a baseline mark
// (on the scenario or one of its cases), 1 for a skip, 2 for a scenario
// that did not apply or is strict only, 3 for a plain pass. Ranks under 2
// are shown open. A strict-only case is no failure.
func htmlRank(sc *Scenario) int {
	unjudged := sc.Status == NotApplicable || sc.Status == StrictOnly
	switch {
	case sc.Status == Skipped:
		return 1
	case sc.Status != Passed && !unjudged || sc.Baseline != "":
		return 0
	}
	for _, c := range sc.Cases {
		if c.Status != Passed && c.Status != StrictOnly || c.Baseline != "" {
			return 0
		}
	}
	if unjudged {
		return 2
	}
	return 3
}

// htmlDuration writes d rounded to the millisecond: "" when it is zero
// (not measured), "<1ms" when it is less.
func htmlDuration(d Duration) string {
	switch {
	case d == 0:
		return ""
	case time.Duration(d) < time.Millisecond:
		return "<1ms"
	}
	return time.Duration(d).Round(time.Millisecond).String()
}

// htmlState maps a status to its CSS class: "na" for not applicable,
// "strict" for strict only; any other status but passed and skipped counts
// as failed, as in Tally.
func htmlState(s Status) string {
	switch s {
	case Passed, Skipped:
		return string(s)
	case NotApplicable:
		return "na"
	case StrictOnly:
		return "strict"
	}
	return string(Failed)
}

// htmlLabel is a status as the page writes it: "not applicable", not
// "not_applicable".
func htmlLabel(s Status) string { return statusLabel(s) }

// htmlOutcome is the badge of a scenario or case: its CSS class and label.
type htmlOutcome struct{ Class, Label string }

// htmlOutcomeOf is the badge of an outcome with its baseline mark, as the
// verdict counts it: an unexpected pass fails the run, so its badge is a
// failure's; a failure the baseline expects does not, so its badge is the
// baseline's own.
func htmlOutcomeOf(s Status, mark string) htmlOutcome {
	switch mark {
	case UnexpectedPass:
		return htmlOutcome{Class: "failed", Label: "unexpected pass: remove it from the baseline"}
	case ExpectedFailure:
		return htmlOutcome{Class: "expected", Label: "expected failure (baseline)"}
	}
	return htmlOutcome{Class: htmlState(s), Label: htmlLabel(s)}
}

// htmlLine is one line of a diff with its CSS class.
type htmlLine struct{ Class, Text string }

// htmlDiff splits a diff into lines, marking removals and additions.
func htmlDiff(d string) []htmlLine {
	var out []htmlLine
	for line := range strings.Lines(d) {
		l := htmlLine{Text: line}
		switch {
		case strings.HasPrefix(line, "-"):
			l.Class = "del"
		case strings.HasPrefix(line, "+"):
			l.Class = "ins"
		}
		out = append(out, l)
	}
	return out
}

// htmlSafe replaces what an HTML page must not carry and what could mislead
// its reader: invalid UTF-8, control characters other than tab, newline and
// carriage return (ANSI escapes included) and noncharacters become U+FFFD;
// invisible characters (the bidi controls that reorder text on screen, the
// zero-width ones that hide it) are written as visible escapes, by the one
// rule of every format ([inert]). Either way the reader sees that something
// was there. It runs on the escaped page: none of these characters is
// markup, and the template itself holds none of them.
func htmlSafe(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.ToValidUTF8(s, string(utf8.RuneError)) {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			b.WriteRune(r)
		case r < 0x20, r >= 0x7F && r <= 0x9F, r >= 0xFDD0 && r <= 0xFDEF, r&0xFFFE == 0xFFFE:
			b.WriteRune(utf8.RuneError)
		default:
			writeRune(&b, r)
		}
	}
	return b.String()
}

// htmlMatrix is the coverage matrix folded to operators x tools, as the
// console's CoverageTable folds it; Idle lists the operators that ran no
// case on any tool.
type htmlMatrix struct {
	Tools []string
	Rows  []htmlRow
	Idle  []string
}

// htmlRow is one operator's cells, one per tool.
type htmlRow struct {
	Operator string
	Cells    []htmlCell
}

// htmlCell is one folded cell: "passed/cases" and its CSS class.
type htmlCell struct{ Text, Class string }

func htmlMatrixOf(cells []Cell) htmlMatrix {
	f := FoldCoverage(cells)
	m := htmlMatrix{Tools: f.Tools}
	for _, op := range f.Operators {
		if !f.Exercised(op) {
			m.Idle = append(m.Idle, op)
			continue
		}
		row := htmlRow{Operator: op}
		for _, t := range f.Tools {
			row.Cells = append(row.Cells, htmlCellOf(f.Cell(op, t)))
		}
		m.Rows = append(m.Rows, row)
	}
	return m
}

// htmlCellOf gives a folded cell the console's text and a class: failed
// when a case failed, none when no case reached it.
func htmlCellOf(c FoldCell) htmlCell {
	switch c.Status() {
	case CellNotExercised:
		return htmlCell{Text: c.String(), Class: "none"}
	case CellFailed:
		return htmlCell{Text: c.String(), Class: "failed"}
	}
	return htmlCell{Text: c.String(), Class: "passed"}
}
