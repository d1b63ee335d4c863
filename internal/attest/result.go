package attest

import (
	"errors"
	"time"

	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
)

// Predicate returns the test result of a finished run: res and the error
// runner.Run returned with it, the run's configuration cfg, made at now.
// The result is Failed when runErr is set (the target did not start, the
// run was interrupted or ran nothing) or the verdict is not a pass; Warned
// when the pass rests on failures a baseline expects; Passed otherwise.
// Scenarios that passed are passedTests, failures the baseline expects
// warnedTests, other failures failedTests; skipped and not-applicable
// scenarios are counted, not listed.
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
		},
	}
	p.PassedTests, p.WarnedTests, p.FailedTests = testsOf(res.Scenarios)
	return p, nil
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
		ExpectedFailures: s.ExpectedFailures, UnexpectedPasses: s.UnexpectedPasses,
		Cases: s.Cases, CasesPassed: s.CasesPassed, CasesFailed: s.CasesFailed, CasesExpected: s.CasesExpected, Leaks: s.Leaks,
	}
}
