package reports

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Progress writes the progress line of one finished scenario, at the level
// the run certifies: its mark (ok, SKIP, N/A, S/O for strict only, FAIL),
// feature, name and duration, and for a failure the line of its error
// that says what failed (see headline), for a not-applicable scenario the
// first line of its error, which says why, for a strict-only one that
// level safe does not judge it. The error may quote the adapter: what
// Progress writes is [Printable].
func Progress(w io.Writer, s Scenario) {
	var b strings.Builder
	fmt.Fprintf(&b, "%-4s %s: %s (%dms)\n", progressMark(s.Status), s.Feature, s.Name, time.Duration(s.Duration).Milliseconds())
	switch s.Status {
	case Failed:
		fmt.Fprintf(&b, "     %s\n", headline(s.Error))
	case NotApplicable:
		fmt.Fprintf(&b, "     %s\n", firstLine(notApplicableMessage(s.Error)))
	case StrictOnly:
		fmt.Fprintf(&b, "     %s\n", strictOnlyText(s.StatusAt(LevelStrict)))
	}
	_, _ = io.WriteString(w, Printable(b.String()))
}

// headline returns the line of a message that says what failed: its
// first line that is not blank, followed by the next one when it only
// introduces it (it ends with a colon); and, when lines that are not
// blank follow, how many, which results.json holds: "start lane 1: the
// target exited (exit status 2) (14 more lines in results.json)".
func headline(msg string) string {
	var lines []string
	for line := range strings.SplitSeq(msg, "\n") {
		if strings.TrimSpace(line) != "" {
			lines = append(lines, strings.TrimRight(line, " \t\r"))
		}
	}
	if len(lines) == 0 {
		return ""
	}
	head, rest := strings.TrimSpace(lines[0]), lines[1:]
	if strings.HasSuffix(head, ":") && len(rest) > 0 {
		head, rest = head+" "+strings.TrimSpace(rest[0]), rest[1:]
	}
	switch len(rest) {
	case 0:
		return head
	case 1:
		return head + " (1 more line in results.json)"
	}
	return fmt.Sprintf("%s (%d more lines in results.json)", head, len(rest))
}

// progressMark is the progress line's mark of a status.
func progressMark(s Status) string {
	switch s {
	case Passed:
		return "ok"
	case Skipped:
		return "SKIP"
	case NotApplicable:
		return "N/A"
	case StrictOnly:
		return "S/O"
	}
	return "FAIL"
}

// Problem returns what is wrong with the scenario's outcome, evidence and
// failed cases included, or "" when it passed, failed as its baseline
// expects, is strict only (not a pass, but no problem of the adapter's at
// the level the run certifies, which does not judge it), or was not
// applicable to the target; unless a case of it failed or passed
// unexpectedly, or (but for a strict-only one) it holds evidence about
// every level. A strict-only case is no problem either. The evidence
// listed is all of it, each labelled with the level it is about when it
// is about one. The text is [Printable]: a test log may go to a terminal.
func (sc Scenario) Problem() string {
	var b strings.Builder
	switch {
	case sc.Baseline == UnexpectedPass:
		b.WriteString("unexpected pass: the baseline lists this scenario as failing; remove it from the baseline\n")
	case sc.Baseline == ExpectedFailure:
		return ""
	case sc.Status == Skipped:
		fmt.Fprintf(&b, "skipped, and a skip is not a pass: %s\n", firstLine(sc.Error))
	case sc.Status == Failed:
		fmt.Fprintf(&b, "%s\n", sc.Error)
	case slices.ContainsFunc(sc.Cases, caseProblem):
	case sc.Status == StrictOnly || !slices.ContainsFunc(sc.Evidence, func(e Evidence) bool { return e.Level == "" }):
		return "" // not judged at this level, or nothing wrong at every level
	}
	for _, e := range sc.Evidence {
		fmt.Fprintf(&b, "evidence [%s] %s\n", evidenceKind(e), e.Message)
	}
	for _, c := range sc.Cases {
		if c.Status == Failed && c.Baseline != ExpectedFailure {
			fmt.Fprintf(&b, "case %s failed; rerun it: %s\n", c.ID, c.Reproducer)
		}
		if c.Baseline == UnexpectedPass {
			fmt.Fprintf(&b, "case %s passed, but the baseline lists it as failing\n", c.ID)
		}
	}
	return Printable(strings.TrimSpace(b.String()))
}

// caseProblem reports whether c failed, not as a baseline expects, or is
// an unexpected pass.
func caseProblem(c Case) bool {
	return c.Status == Failed && c.Baseline != ExpectedFailure || c.Baseline == UnexpectedPass
}
