package reports

import "fmt"

// The messages of the baseline marks and of a skip, shared by the
// renderers that turn a mark into a status (JUnit, cucumber JSON, CTRF).
const (
	xfailPrefix  = "expected failure (baseline): "
	xpassMessage = "unexpected pass: the baseline lists this as failing; remove it from the baseline"
	skipIsNoPass = "skipped: a skip is not a pass"
)

// Verdict is a run's outcome as a whole.
type Verdict string

// The verdicts a run can have.
const (
	VerdictPassed      Verdict = "passed"
	VerdictFailed      Verdict = "failed"
	VerdictInterrupted Verdict = "interrupted"
)

// Verdict decides the run from its summary, as the CLI's exit code does:
// an interrupted run, a run where nothing ran, a failure no baseline
// explains ([Summary.Unexplained]), an unexpected pass or a skip is not a
// pass. Not-applicable and strict-only scenarios (and strict-only cases)
// neither pass nor fail a run, but a run where every scenario was one or
// the other certified nothing and is not a pass either. The reasons say
// why, one each; a pass says what it rests on, and how many scenarios and
// cases it did not judge.
func (s Summary) Verdict() (Verdict, []string) {
	if s.Interrupted {
		return VerdictInterrupted, []string{fmt.Sprintf("the run was stopped before every scenario ran; scenarios that did not run: %d", s.Skipped)}
	}
	var why []string
	add := func(cond bool, format string, args ...any) {
		if cond {
			why = append(why, fmt.Sprintf(format, args...))
		}
	}
	add(s.Scenarios == 0, "no scenario ran")
	add(s.Failed > s.ExpectedFailures, "failed scenarios no baseline explains: %d", s.Failed-s.ExpectedFailures)
	add(s.CasesUnexpected(), "failed generated cases no baseline lists: %d", s.CasesFailed-s.CasesExpected)
	add(s.UnexpectedPasses > 0, "unexpected passes (remove them from the baseline): %d", s.UnexpectedPasses)
	add(s.Skipped > 0, "skipped scenarios (a skip is not a pass): %d", s.Skipped)
	unjudged := s.Scenarios > 0 && s.NotApplicable+s.StrictOnly == s.Scenarios
	add(unjudged && s.StrictOnly == 0, "no scenario applies to the target: all %d are not applicable", s.NotApplicable)
	add(unjudged && s.StrictOnly > 0, "level safe judged no scenario: %d are strict only, %d not applicable", s.StrictOnly, s.NotApplicable)
	if len(why) > 0 {
		return VerdictFailed, why
	}
	return VerdictPassed, s.passedOn()
}

// passedOn says what a pass rests on: every scenario passed (of those that
// apply and that the level judges), or every failure is one the baseline
// expects; and how many scenarios did not apply, and how many scenarios
// and cases level safe did not judge, when any.
func (s Summary) passedOn() []string {
	var why []string
	switch n := s.ExpectedFailures + s.CasesExpected; {
	case n > 0:
		why = append(why, fmt.Sprintf("every failure is one the baseline expects: %d", n))
	case s.NotApplicable > 0 && s.StrictOnly > 0:
		why = append(why, "every scenario that applies to the target and that level safe judges passed")
	case s.NotApplicable > 0:
		why = append(why, "every scenario that applies to the target passed")
	case s.StrictOnly > 0:
		why = append(why, "every scenario that level safe judges passed")
	default:
		why = append(why, "every scenario passed")
	}
	if s.NotApplicable > 0 {
		why = append(why, fmt.Sprintf("scenarios not applicable to the target, neither passed nor failed: %d", s.NotApplicable))
	}
	if s.StrictOnly > 0 {
		why = append(why, fmt.Sprintf("scenarios strict only (level safe does not judge them), neither passed nor failed: %d", s.StrictOnly))
	}
	if s.CasesStrictOnly > 0 {
		why = append(why, fmt.Sprintf("generated cases strict only (level safe does not judge them), neither passed nor failed: %d", s.CasesStrictOnly))
	}
	return why
}
