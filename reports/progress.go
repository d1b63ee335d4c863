package reports

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Progress writes the progress line of one finished scenario: its mark
// (ok, SKIP, N/A, FAIL), feature, name and duration, and for a failure or a
// not-applicable scenario the first line of its error, which says why. The
// error may quote the adapter: what Progress writes is [Printable].
func Progress(w io.Writer, s Scenario) {
	var b strings.Builder
	fmt.Fprintf(&b, "%-4s %s: %s (%dms)\n", progressMark(s.Status), s.Feature, s.Name, time.Duration(s.Duration).Milliseconds())
	switch s.Status {
	case Failed:
		fmt.Fprintf(&b, "     %s\n", firstLine(s.Error))
	case NotApplicable:
		fmt.Fprintf(&b, "     %s\n", firstLine(notApplicableMessage(s.Error)))
	}
	_, _ = io.WriteString(w, Printable(b.String()))
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
	}
	return "FAIL"
}

// Problem returns what is wrong with the scenario's outcome, evidence and
// failed cases included, or "" when it passed, failed as its baseline
// expects, or was not applicable to the target (not a pass, but no
// problem of the adapter's). The text is [Printable]: a test log may go to
// a terminal.
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
	}
	for _, e := range sc.Evidence {
		fmt.Fprintf(&b, "evidence [%s] %s\n", e.Kind, e.Message)
	}
	for _, c := range sc.Cases {
		if c.Status != Passed && c.Baseline != ExpectedFailure {
			fmt.Fprintf(&b, "case %s failed; rerun it: %s\n", c.ID, c.Reproducer)
		}
		if c.Baseline == UnexpectedPass {
			fmt.Fprintf(&b, "case %s passed, but the baseline lists it as failing\n", c.ID)
		}
	}
	return Printable(strings.TrimSpace(b.String()))
}
