package reports

import (
	"fmt"
	"io"
	"strings"
)

// TextOptions choose what [Text] writes beside the run's results.
type TextOptions struct {
	// Coverage adds the coverage matrix folded to operators x tools
	// ([CoverageTable]) when the run generated cases.
	Coverage bool
	// Files are the report files the run wrote, listed last.
	Files []string
}

// Text renders r as the summary toolcert prints at the end of a run, at
// the level it certifies (named in its first line): each scenario that
// failed, was skipped or that a baseline marks, with the first line of up
// to three of its evidence that counts at that level; up to ten failed
// generated cases per scenario, with why and the command that reruns
// each; the not-applicable scenarios apart, each with the first line of
// its reason, and the strict-only ones; the coverage matrix when
// opts.Coverage is set; the case, blocked-call, restart and baseline
// counts; each level's counts; the controls by state, each violated one
// with its first failures, and those whose state differs between levels;
// the scenario counts (not applicable and strict only among them when the
// run has any) with the leaks and marks; and opts.Files. It writes nothing
// until the whole summary is rendered. Evidence quotes the adapter, and
// the summary goes to a terminal: what Text writes is [Printable].
func Text(w io.Writer, r *Result, opts TextOptions) error {
	var b strings.Builder
	fmt.Fprintf(&b, "\ntoolcert %s against %s (seed %d), level %s\n", r.Version, r.Target, r.Seed, r.CertifiedLevel())
	for _, sc := range r.Scenarios {
		textScenario(&b, sc, r.CertifiedLevel())
	}
	textNotApplicable(&b, r.Scenarios)
	textStrictOnly(&b, r.Scenarios)
	textCounts(&b, r, opts.Coverage)
	textLevels(&b, r)
	textControls(&b, r)
	s := r.Summary
	unjudged := ""
	if s.NotApplicable > 0 {
		unjudged = fmt.Sprintf(", %d not applicable", s.NotApplicable)
	}
	if s.StrictOnly > 0 {
		unjudged += fmt.Sprintf(", %d strict only", s.StrictOnly)
	}
	marks := ""
	if s.Marks > 0 {
		marks = fmt.Sprintf("; %d marks (accepted answers shown to the agent)", s.Marks)
	}
	fmt.Fprintf(&b, "%d scenarios: %d passed, %d failed, %d skipped%s; %d canary leaks%s; %d upstream requests; %.1fs\n",
		s.Scenarios, s.Passed, s.Failed, s.Skipped, unjudged, s.Leaks, marks, s.UpstreamRequests, r.Duration.Seconds())
	for _, p := range opts.Files {
		fmt.Fprintf(&b, "wrote %s\n", p)
	}
	if _, err := io.WriteString(w, Printable(b.String())); err != nil {
		return fmt.Errorf("write text summary: %w", err)
	}
	return nil
}

// textScenario writes sc when it failed, was skipped or a baseline marks
// it, with the evidence that counts at level l, and its failed cases and
// unexpectedly passing ones. A not-applicable or strict-only scenario is
// written apart, by textNotApplicable or textStrictOnly, unless it has a
// failed case to head.
func textScenario(b *strings.Builder, sc Scenario, l Level) {
	if (sc.Status == NotApplicable || sc.Status == StrictOnly) && len(failedCases(sc)) == 0 {
		return
	}
	if sc.Status != Passed || sc.Baseline != "" {
		fmt.Fprintf(b, "  %s  %s: %s\n", textStatus(sc), sc.Feature, sc.Name)
		if sc.Status != StrictOnly {
			for _, e := range atMost(evidenceAt(sc.Evidence, l), 3) {
				fmt.Fprintf(b, "      %s\n", evidenceLines(sc, e.Message))
			}
		}
	}
	if sc.Status == Failed {
		textDetail(b, "      ", sc.Saw, sc.Requests, sc.TargetOutput)
	}
	for _, c := range atMost(failedCases(sc), 10) {
		fmt.Fprintf(b, "      case %s: %s\n", c.ID, caseReason(c, l))
		textDetail(b, "        ", c.Saw, c.Requests, c.TargetOutput)
		fmt.Fprintf(b, "        reproduce: %s\n", c.Reproducer)
	}
	for _, c := range sc.Cases {
		if c.Baseline == UnexpectedPass {
			fmt.Fprintf(b, "      case %s: UNEXPECTED PASS (remove it from the baseline)\n", c.ID)
		}
	}
}

// textDetail writes, indented, the first part of what the agent saw
// (clipped at 160 bytes), the first four upstream requests and the last
// three lines the target printed: results.json has them all.
func textDetail(b *strings.Builder, indent string, saw []Part, reqs []Request, output string) {
	for _, line := range detailLines(saw, reqs, output, 160, 1, 4, 3, 480) {
		b.WriteString(indent + strings.ReplaceAll(line, "\n", "\n"+indent+"| ") + "\n")
	}
}

// targetLines is how many lines of a message of the target feature (a
// start failure quoting the adapter's last output, the processes it left)
// the summary shows; the rest is in results.json.
const targetLines = 12

// evidenceLines returns the first line of message or, for a scenario of
// the target feature, its first targetLines lines, indented under it.
func evidenceLines(sc Scenario, message string) string {
	if sc.Feature != TargetFeature {
		return firstLine(message)
	}
	lines := strings.Split(strings.TrimRight(message, "\n"), "\n")
	more := ""
	if len(lines) > targetLines {
		more = fmt.Sprintf("\n        ... %d more lines in results.json", len(lines)-targetLines)
		lines = lines[:targetLines]
	}
	return strings.Join(lines, "\n        | ") + more
}

// textNotApplicable writes the not-applicable scenarios, each with the
// first line of its reason, under a line that counts them.
func textNotApplicable(b *strings.Builder, scs []Scenario) {
	na := notApplicable(scs)
	if len(na) == 0 {
		return
	}
	fmt.Fprintf(b, "%d scenarios not applicable to the target (neither passed nor failed):\n", len(na))
	for _, sc := range na {
		fmt.Fprintf(b, "  %s: %s\n      %s\n", sc.Feature, sc.Name, firstLine(notApplicableReason(sc)))
	}
}

// textStrictOnly writes the strict-only scenarios, under a line that
// counts them, each with what level strict found; then up to ten
// strict-only cases the same way.
func textStrictOnly(b *strings.Builder, scs []Scenario) {
	if so := strictOnly(scs); len(so) > 0 {
		fmt.Fprintf(b, "%d scenarios strict only (level safe does not judge them; neither passed nor failed):\n", len(so))
		for _, sc := range so {
			fmt.Fprintf(b, "  %s: %s\n      level strict: %s\n", sc.Feature, sc.Name, statusLabel(sc.StatusAt(LevelStrict)))
		}
	}
	cases := strictOnlyCases(scs)
	if len(cases) == 0 {
		return
	}
	fmt.Fprintf(b, "%d generated cases strict only (level safe does not judge them; neither passed nor failed):\n", len(cases))
	for _, c := range atMost(cases, 10) {
		fmt.Fprintf(b, "  case %s (%s: %s)\n      level strict: %s\n", c.Case.ID, c.Scenario.Feature, c.Scenario.Name, statusLabel(c.Case.StatusAt(LevelStrict)))
	}
}

// textLevels writes each level's counts, the certified one marked, when
// the run has them.
func textLevels(b *strings.Builder, r *Result) {
	for _, ls := range r.Summary.Levels {
		mark := ""
		if ls.Level == r.CertifiedLevel() {
			mark = " (certified)"
		}
		fmt.Fprintf(b, "level %s%s: %s\n", ls.Level, mark, levelCounts(ls))
	}
}

// textCounts writes the coverage matrix (when coverage is set) and the
// counts that only some runs have: cases, blocked calls, restarts and the
// baseline's.
func textCounts(b *strings.Builder, r *Result, coverage bool) {
	s := r.Summary
	if s.Cases > 0 && coverage {
		fmt.Fprintln(b, "\nhostile-space coverage (passed/cases per operator and tool; the field-level matrix is in results.json):")
		CoverageTable(b, r.Coverage)
	}
	if s.Cases > 0 {
		so := ""
		if s.CasesStrictOnly > 0 {
			so = fmt.Sprintf(", %d strict only (level safe does not judge them)", s.CasesStrictOnly)
		}
		fmt.Fprintf(b, "%d generated cases: %d passed, %d failed%s\n", s.Cases, s.CasesPassed, s.CasesFailed, so)
	}
	if s.CasesSkipped > 0 {
		fmt.Fprintf(b, "%d generated cases skipped: a step before theirs failed (results.json lists each under skipped_cases)\n", s.CasesSkipped)
	}
	if s.Blocked > 0 {
		fmt.Fprintf(b, "%d scenarios with denied, refused, expired or malformed calls: %d upstream requests reached from them\n", s.Blocked, s.BlockedRequests)
	}
	if s.TargetRestarts > 0 {
		fmt.Fprintf(b, "the target died and was started again %d times: each death failed the scenario it happened in\n", s.TargetRestarts)
	}
	textBaseline(b, r)
}

// textBaseline writes what the baseline explained, when one applied.
func textBaseline(b *strings.Builder, r *Result) {
	s := r.Summary
	if s.ExpectedFailures+s.CasesExpected+s.UnexpectedPasses+len(r.BaselineUnmatched) == 0 {
		return
	}
	fmt.Fprintf(b, "baseline: %d expected failures (%d scenarios, %d cases), %d unexpected passes, %d entries not reached\n",
		s.ExpectedFailures+s.CasesExpected, s.ExpectedFailures, s.CasesExpected, s.UnexpectedPasses, len(r.BaselineUnmatched))
	for _, id := range atMost(r.BaselineUnmatched, 5) {
		fmt.Fprintf(b, "  not reached: %s\n", id)
	}
}

// textControls writes the controls by state at the level r certifies: a
// line that counts them, each violated control with up to three of its
// failures, and the IDs of those not exercised; then, for the other level,
// a line that counts them there and each control whose state there
// differs.
func textControls(b *strings.Builder, r *Result) {
	controls := r.Controls
	if len(controls) == 0 {
		return
	}
	e, v, n := ControlCounts(controls)
	fmt.Fprintf(b, "controls: %d evidenced, %d violated, %d not exercised (docs/controls.md)\n", e, v, n)
	defer textControlLevels(b, r)
	var idle []string
	for _, cr := range controls {
		switch cr.Status {
		case ControlViolated:
			fmt.Fprintf(b, "  violated  %s: %d of %d failed", cr.named(), cr.Failed, cr.Failed+cr.Passed)
			if cr.Expected > 0 {
				fmt.Fprintf(b, ", %d expected by the baseline", cr.Expected)
			}
			b.WriteString("\n")
			for _, ref := range atMost(cr.Violations, 3) {
				fmt.Fprintf(b, "      %s\n", controlRefText(ref))
			}
		case ControlNotExercised:
			idle = append(idle, cr.ID)
		}
	}
	if len(idle) > 0 {
		fmt.Fprintf(b, "  not exercised: %s\n", strings.Join(idle, ", "))
	}
}

// textControlsDiffer bounds the controls whose state differs at another
// level that the summary names.
const textControlsDiffer = 10

// textControlLevels writes, for each level but the one r certifies, the
// controls by state there, and up to textControlsDiffer controls whose
// state there differs from its Status.
func textControlLevels(b *strings.Builder, r *Result) {
	for _, l := range Levels() {
		if l == r.CertifiedLevel() {
			continue
		}
		var at []ControlResult
		var differ []string
		for _, cr := range r.Controls {
			cl, ok := cr.At(l)
			if !ok {
				return
			}
			at = append(at, ControlResult{Status: cl.Status})
			if cl.Status != cr.Status {
				differ = append(differ, fmt.Sprintf("  at level %s: %s  %s: %d passed, %d failed\n", l, controlLabel(cl.Status), cr.ID, cl.Passed, cl.Failed))
			}
		}
		e, v, n := ControlCounts(at)
		fmt.Fprintf(b, "controls at level %s: %d evidenced, %d violated, %d not exercised\n", l, e, v, n)
		for _, line := range atMost(differ, textControlsDiffer) {
			b.WriteString(line)
		}
		if len(differ) > textControlsDiffer {
			fmt.Fprintf(b, "  ... and %d more whose state differs there (results.json: controls[].levels)\n", len(differ)-textControlsDiffer)
		}
	}
}

// textStatus is a scenario's status as the summary prints it, with its
// baseline mark.
func textStatus(sc Scenario) string {
	switch sc.Baseline {
	case ExpectedFailure:
		return "expected failure"
	case UnexpectedPass:
		return "UNEXPECTED PASS (remove it from the baseline)"
	}
	return statusLabel(sc.Status)
}

// failedCases returns the cases of sc that failed: neither passed nor
// strict only.
func failedCases(sc Scenario) []Case {
	var out []Case
	for _, c := range sc.Cases {
		if c.Status != Passed && c.Status != StrictOnly {
			out = append(out, c)
		}
	}
	return out
}

// caseReason is the first line of c's first evidence that counts at level
// l, or its status.
func caseReason(c Case, l Level) string {
	ev := evidenceAt(c.Evidence, l)
	if len(ev) == 0 {
		return string(c.Status)
	}
	return firstLine(ev[0].Message)
}

// atMost returns the first n elements of s, or s when it is shorter.
func atMost[T any](s []T, n int) []T {
	if len(s) > n {
		return s[:n]
	}
	return s
}
