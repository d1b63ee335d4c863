package runner

import (
	"context"
	"testing"
	"testing/fstest"
	"time"

	"github.com/toolcert/toolcert/adapters/reference"
)

// TestCaseTimeSplitsTheCases: a run's summary.case_time splits its
// generated cases' lane time; the baselines, calls and checks of a case
// lie within its duration, so their sums do too. A run whose cases were
// all skipped has none.
func TestCaseTimeSplitsTheCases(t *testing.T) {
	const feature = `Feature: variants
  Scenario: every variant of an example
    Then every generated variant of "review_status/approved" is handled as expected without leaking
`
	res, err := Run(context.Background(), Config{Target: reference.InProcess(),
		Features: fstest.MapFS{"v.feature": {Data: []byte(feature)}}})
	if err != nil {
		t.Fatal(err)
	}
	ct := res.Summary.CaseTime
	if ct == nil || res.Summary.Cases == 0 {
		t.Fatalf("cases %d, case_time %+v: want both", res.Summary.Cases, ct)
	}
	if ct.Generate <= 0 || ct.Baselines <= 0 || ct.Calls <= 0 || ct.Checks <= 0 {
		t.Errorf("case_time %+v: want every part measured", *ct)
	}
	var cases time.Duration
	for _, sc := range res.Scenarios {
		for _, c := range sc.Cases {
			cases += time.Duration(c.Duration)
		}
	}
	if parts := time.Duration(ct.Baselines + ct.Calls + ct.Checks); parts > cases {
		t.Errorf("baselines + calls + checks %v, more than the cases' durations %v", parts, cases)
	}

	skipped, err := Run(context.Background(), Config{Target: reference.InProcess(),
		Features: fstest.MapFS{"skip.feature": {Data: []byte(skipFeature)}}})
	if err != nil {
		t.Fatal(err)
	}
	if skipped.Summary.CaseTime != nil {
		t.Errorf("a run whose cases were skipped has case_time %+v, want none", *skipped.Summary.CaseTime)
	}
}
