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
				line, _, _ := strings.Cut(sc.Error, "\n")
				t.Skipf("expected failure (baseline): %s", line)
			}
			if p := sc.Problem(); p != "" {
				t.Error(p)
			}
		})
	}
	return res
}
