// Package toolcerttest runs toolcert from a connector owner's own Go
// tests, as net/http/httptest serves handlers to them: one call certifies a
// target, and every scenario is reported as a subtest, with its evidence
// and, for a generated case, the command that reruns it.
//
//	func TestCertify(t *testing.T) {
//		adapter, err := target.NewProcess([]string{"./my-adapter"})
//		if err != nil {
//			t.Fatal(err)
//		}
//		toolcerttest.Certify(t, runner.Config{Target: adapter})
//	}
package toolcerttest

import (
	"fmt"
	"path"
	"strings"
	"testing"

	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
)

// Certify runs cfg with t's context and reports the result on t: one
// subtest per scenario, failing with its evidence when the scenario failed,
// was skipped (a skip is not a pass) or passed against a baseline that
// lists it. A field cfg leaves zero takes runner's default (see
// runner.Config): the built-in features and corpus, the default profile,
// runner.DefaultConcurrency lanes. cfg.Target is required. Certify returns the
// result for further checks; a run that cannot start, ran nothing or was
// interrupted stops the test.
func Certify(t *testing.T, cfg runner.Config) *reports.Result {
	t.Helper()
	if cfg.Target == nil {
		t.Fatal("toolcerttest: runner.Config.Target is required")
	}
	res, err := runner.Run(t.Context(), cfg)
	if err != nil {
		t.Fatalf("toolcerttest: run against %s: %v", cfg.Target, err)
	}
	for _, sc := range res.Scenarios {
		t.Run(path.Base(sc.Feature)+" "+sc.Name, func(t *testing.T) {
			if sc.Baseline == reports.ExpectedFailure {
				t.Skipf("expected failure (baseline): %s", firstLine(sc.Error))
			}
			if p := Problem(sc); p != "" {
				t.Error(p)
			}
		})
	}
	return res
}

// Problem returns what is wrong with one scenario's outcome, evidence and
// failed cases included, or "" when it passed (or failed as its baseline
// expects).
func Problem(sc reports.Scenario) string {
	var b strings.Builder
	switch {
	case sc.Baseline == reports.UnexpectedPass:
		b.WriteString("unexpected pass: the baseline lists this scenario as failing; remove it from the baseline\n")
	case sc.Baseline == reports.ExpectedFailure:
		return ""
	case sc.Status == reports.Skipped:
		fmt.Fprintf(&b, "skipped, and a skip is not a pass: %s\n", firstLine(sc.Error))
	case sc.Status == reports.Failed:
		fmt.Fprintf(&b, "%s\n", sc.Error)
	}
	for _, e := range sc.Evidence {
		fmt.Fprintf(&b, "evidence [%s] %s\n", e.Kind, e.Message)
	}
	for _, c := range sc.Cases {
		if c.Status != reports.Passed && c.Baseline != reports.ExpectedFailure {
			fmt.Fprintf(&b, "case %s failed; rerun it: %s\n", c.ID, c.Reproducer)
		}
		if c.Baseline == reports.UnexpectedPass {
			fmt.Fprintf(&b, "case %s passed, but the baseline lists it as failing\n", c.ID)
		}
	}
	return strings.TrimSpace(b.String())
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
