package toolcerttest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/adapters/mutant"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/targets"
	"github.com/toolcert/toolcert/toolcerttest"
)

// TestCertifyReference certifies the reference adapter on the transport
// features, with every default Certify fills in.
func TestCertifyReference(t *testing.T) {
	res := toolcerttest.Certify(t, runner.Config{Target: reference.InProcess(), Tags: "@transport && ~@slow"})
	if res.Summary.Scenarios < 5 || res.Summary.Passed != res.Summary.Scenarios {
		t.Errorf("summary %+v, want at least 5 scenarios, all passed", res.Summary)
	}
}

// TestProblemNamesWhatFailed: the message Certify fails a subtest with
// carries the scenario's error and evidence, and the rerun command of each
// failed generated case; a passing scenario has none.
func TestProblemNamesWhatFailed(t *testing.T) {
	tgt, err := mutant.InProcess("duplicate-last-wins")
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(context.Background(), runner.Config{
		Features: toolcert.Features(), FeaturePaths: []string{"features/duplicate_members.feature", "features/generated_variants.feature"},
		Fixtures: toolcert.Fixtures(), Target: tgt, Profile: targets.DefaultProfile(), Tags: "~@slow",
	})
	if err != nil {
		t.Fatal(err)
	}
	var sawScenario, sawCase bool
	for _, sc := range res.Scenarios {
		p := sc.Problem()
		switch {
		case sc.Status == reports.Passed && p != "":
			t.Errorf("%s passed but Problem says %q", sc.ID, p)
		case sc.Status == reports.Failed && p == "":
			t.Errorf("%s failed but Problem says nothing", sc.ID)
		case sc.Status == reports.Failed && len(sc.Cases) == 0:
			sawScenario = sawScenario || strings.Contains(p, "evidence [")
		case sc.Status == reports.Failed:
			sawCase = sawCase || strings.Contains(p, "rerun it: toolcert run --case ")
		}
	}
	if !sawScenario || !sawCase {
		t.Errorf("no failed scenario with evidence (%v) or failed case with a rerun command (%v) in the messages", sawScenario, sawCase)
	}
}

// TestProblemBaseline: an expected failure is no problem, an unexpected
// pass is.
func TestProblemBaseline(t *testing.T) {
	expected := reports.Scenario{Status: reports.Failed, Error: "x", Baseline: reports.ExpectedFailure}
	unexpected := reports.Scenario{Status: reports.Passed, Baseline: reports.UnexpectedPass}
	if p := expected.Problem(); p != "" {
		t.Errorf("expected failure: Problem = %q, want none", p)
	}
	if p := unexpected.Problem(); !strings.Contains(p, "unexpected pass") {
		t.Errorf("unexpected pass: Problem = %q", p)
	}
	if p := (reports.Scenario{Status: reports.Skipped, Error: "interrupted"}).Problem(); !strings.Contains(p, "a skip is not a pass") {
		t.Errorf("skipped: Problem = %q", p)
	}
}
