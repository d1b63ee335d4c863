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

// Text renders r as the summary toolcert prints at the end of a run: each
// scenario that failed, was skipped or that a baseline marks, with the
// first line of up to three of its evidence; up to ten failed generated
// cases per scenario, with why and the command that reruns each; the
// not-applicable scenarios apart, each with the first line of its reason;
// the coverage matrix when opts.Coverage is set; the case, blocked-call,
// restart and baseline counts; the controls by state, each violated one
// with its first failures; the scenario counts (not applicable among them
// when the run has any); and opts.Files. It writes nothing until the whole
// summary is rendered. Evidence quotes the adapter, and the summary goes to
// a terminal: what Text writes is [Printable].
func Text(w io.Writer, r *Result, opts TextOptions) error {
	var b strings.Builder
	fmt.Fprintf(&b, "\ntoolcert %s against %s (seed %d)\n", r.Version, r.Target, r.Seed)
	for _, sc := range r.Scenarios {
		textScenario(&b, sc)
	}
	textNotApplicable(&b, r.Scenarios)
	textCounts(&b, r, opts.Coverage)
	textControls(&b, r.Controls)
	s := r.Summary
	na := ""
	if s.NotApplicable > 0 {
		na = fmt.Sprintf(", %d not applicable", s.NotApplicable)
	}
	fmt.Fprintf(&b, "%d scenarios: %d passed, %d failed, %d skipped%s; %d canary leaks; %d upstream requests; %.1fs\n",
		s.Scenarios, s.Passed, s.Failed, s.Skipped, na, s.Leaks, s.UpstreamRequests, r.Duration.Seconds())
	for _, p := range opts.Files {
		fmt.Fprintf(&b, "wrote %s\n", p)
	}
	if _, err := io.WriteString(w, Printable(b.String())); err != nil {
		return fmt.Errorf("write text summary: %w", err)
	}
	return nil
}

// textScenario writes sc when it failed, was skipped or a baseline marks
// it, and its failed cases and unexpectedly passing ones. A not-applicable
// scenario is written apart, by textNotApplicable, unless it has a failed
// case to head.
func textScenario(b *strings.Builder, sc Scenario) {
	if sc.Status == NotApplicable && len(failedCases(sc)) == 0 {
		return
	}
	if sc.Status != Passed || sc.Baseline != "" {
		fmt.Fprintf(b, "  %s  %s: %s\n", textStatus(sc), sc.Feature, sc.Name)
		for _, e := range atMost(sc.Evidence, 3) {
			fmt.Fprintf(b, "      %s\n", evidenceLines(sc, e.Message))
		}
	}
	for _, c := range atMost(failedCases(sc), 10) {
		fmt.Fprintf(b, "      case %s: %s\n        reproduce: %s\n", c.ID, caseReason(c), c.Reproducer)
	}
	for _, c := range sc.Cases {
		if c.Baseline == UnexpectedPass {
			fmt.Fprintf(b, "      case %s: UNEXPECTED PASS (remove it from the baseline)\n", c.ID)
		}
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
		fmt.Fprintf(b, "%d generated cases: %d passed, %d failed\n", s.Cases, s.CasesPassed, s.CasesFailed)
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

// textControls writes the controls by state: a line that counts them, each
// violated control with up to three of its failures, and the IDs of those
// not exercised.
func textControls(b *strings.Builder, controls []ControlResult) {
	if len(controls) == 0 {
		return
	}
	e, v, n := ControlCounts(controls)
	fmt.Fprintf(b, "controls: %d evidenced, %d violated, %d not exercised (docs/controls.md)\n", e, v, n)
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

// textStatus is a scenario's status as the summary prints it, with its
// baseline mark.
func textStatus(sc Scenario) string {
	switch sc.Baseline {
	case ExpectedFailure:
		return "expected failure"
	case UnexpectedPass:
		return "UNEXPECTED PASS (remove it from the baseline)"
	}
	if sc.Status == NotApplicable {
		return "not applicable"
	}
	return string(sc.Status)
}

// failedCases returns the cases of sc that did not pass.
func failedCases(sc Scenario) []Case {
	var out []Case
	for _, c := range sc.Cases {
		if c.Status != Passed {
			out = append(out, c)
		}
	}
	return out
}

// caseReason is the first line of c's first evidence, or its status.
func caseReason(c Case) string {
	if len(c.Evidence) == 0 {
		return string(c.Status)
	}
	return firstLine(c.Evidence[0].Message)
}

// atMost returns the first n elements of s, or s when it is shorter.
func atMost[T any](s []T, n int) []T {
	if len(s) > n {
		return s[:n]
	}
	return s
}
