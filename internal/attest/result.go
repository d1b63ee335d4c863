package attest

import (
	"errors"
	"time"

	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
)

// Predicate returns the test result of a finished run: res and the error
// runner.Run returned with it, the run's configuration cfg, made at now.
// The result is the level the run certifies: Failed when runErr is set
// (the target did not start, the run was interrupted or ran nothing) or
// the verdict is not a pass; Warned when the pass rests on failures a
// baseline expects; Passed otherwise. Scenarios that passed are
// passedTests, failures the baseline expects warnedTests, other failures
// failedTests; skipped, not-applicable and strict-only scenarios are
// counted, not listed. The extension field names the level and gives the
// result and counts at each level (see [LevelResult]).
func Predicate(res *reports.Result, runErr error, cfg Config, now time.Time) (TestResult, error) {
	conf, err := cfg.descriptors(res.Seed)
	if err != nil {
		return TestResult{}, err
	}
	versions, err := cfg.upstreamVersions()
	if err != nil {
		return TestResult{}, err
	}
	verdict, why := res.Summary.Verdict()
	if runErr != nil {
		why = append([]string{runReason(runErr)}, why...)
	}
	p := TestResult{
		Result:        resultOf(res.Summary, verdict, runErr),
		Configuration: conf,
		Toolcert: Run{
			Version: cfg.Version, Target: res.Target,
			UpstreamVersion: cfg.UpstreamVersion, UpstreamVersions: versions,
			Timestamp: now.UTC().Truncate(time.Second), StartedAt: res.StartedAt.UTC().Truncate(time.Second),
			Verdict: string(verdict), Reasons: why, Counts: countsOf(res.Summary), Selection: cfg.Selection,
			Level: res.CertifiedLevel(),
		},
	}
	p.Toolcert.Levels = levelsOf(res, p.Result, runErr)
	p.PassedTests, p.WarnedTests, p.FailedTests = testsOf(res.Scenarios)
	return p, nil
}

// levelsOf returns the run's result and counts at each level it has
// counts for, and at the level it certifies always: there, certified, the
// predicate's result; elsewhere Failed when runErr is set or the verdict
// at that level is not a pass, Passed otherwise.
func levelsOf(res *reports.Result, certified Result, runErr error) []LevelResult {
	var out []LevelResult
	for _, l := range reports.Levels() {
		ls, ok := res.Summary.At(l)
		switch {
		case l == res.CertifiedLevel():
			if !ok {
				ls = levelSummaryOf(res.Summary)
			}
			out = append(out, LevelResult{Level: l, Result: certified, Counts: levelCountsOf(ls)})
		case ok:
			result := Passed
			if v, _, _ := res.VerdictAt(l); runErr != nil || v != reports.VerdictPassed {
				result = Failed
			}
			out = append(out, LevelResult{Level: l, Result: result, Counts: levelCountsOf(ls)})
		}
	}
	return out
}

// levelSummaryOf returns the counts of a summary that has none per level
// (its scenarios carry no status per level: a target that did not start).
func levelSummaryOf(s reports.Summary) reports.LevelSummary {
	return reports.LevelSummary{Scenarios: s.Scenarios, Passed: s.Passed, Failed: s.Failed, Skipped: s.Skipped,
		NotApplicable: s.NotApplicable, StrictOnly: s.StrictOnly, Cases: s.Cases, CasesPassed: s.CasesPassed,
		CasesFailed: s.CasesFailed, CasesStrictOnly: s.CasesStrictOnly}
}

// levelCountsOf returns the counts of one level's summary.
func levelCountsOf(ls reports.LevelSummary) LevelCounts {
	return LevelCounts{Scenarios: ls.Scenarios, Passed: ls.Passed, Failed: ls.Failed, Skipped: ls.Skipped,
		NotApplicable: ls.NotApplicable, StrictOnly: ls.StrictOnly, Cases: ls.Cases, CasesPassed: ls.CasesPassed,
		CasesFailed: ls.CasesFailed, CasesStrictOnly: ls.CasesStrictOnly}
}

// resultOf maps a run's verdict onto a test result.
func resultOf(s reports.Summary, verdict reports.Verdict, runErr error) Result {
	switch {
	case runErr != nil || verdict != reports.VerdictPassed:
		return Failed
	case s.ExpectedFailures+s.CasesExpected > 0:
		return Warned
	}
	return Passed
}

// runReason says why a run that returned runErr is no pass, without
// quoting the adapter (a start failure's error holds its output).
func runReason(runErr error) string {
	for _, sentinel := range []error{runner.ErrTargetStart, runner.ErrInterrupted, runner.ErrNothingRan} {
		if errors.Is(runErr, sentinel) {
			return sentinel.Error()
		}
	}
	return "the run did not finish"
}

// testsOf returns the IDs of the scenarios that passed, that failed as a
// baseline expects, and that failed otherwise, never nil.
func testsOf(scenarios []reports.Scenario) (passed, warned, failed []string) {
	passed, warned, failed = []string{}, []string{}, []string{}
	for _, sc := range scenarios {
		switch {
		case sc.Status == reports.Passed:
			passed = append(passed, sc.ID)
		case sc.Status == reports.Failed && sc.Baseline == reports.ExpectedFailure:
			warned = append(warned, sc.ID)
		case sc.Status == reports.Failed:
			failed = append(failed, sc.ID)
		}
	}
	return passed, warned, failed
}

// countsOf returns the counts of a run's summary.
func countsOf(s reports.Summary) Counts {
	return Counts{
		Scenarios: s.Scenarios, Passed: s.Passed, Failed: s.Failed, Skipped: s.Skipped, NotApplicable: s.NotApplicable,
		StrictOnly: s.StrictOnly, ExpectedFailures: s.ExpectedFailures, UnexpectedPasses: s.UnexpectedPasses,
		Cases: s.Cases, CasesPassed: s.CasesPassed, CasesFailed: s.CasesFailed, CasesStrictOnly: s.CasesStrictOnly,
		CasesExpected: s.CasesExpected, Leaks: s.Leaks, Marks: s.Marks,
	}
}
