package runner

import (
	"context"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/reports"
)

// skipFeature fails at its first Then; two steps after it run generated
// variants.
const skipFeature = `Feature: skipped variants
  Scenario: a failed step, then the variants
    Given the upstream answers GET /reviews/CR-1042 with status 404
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure DENIED, not retryable
    And the generated variant "review_status/approved/upstream_status#404" is handled as expected without leaking
    And every generated variant of "review_status/approved" is handled as expected without leaking
`

// TestVariantsAfterAFailedStepAreSkipped: the steps after a failed one are
// in the result as skipped, and the generated variants they would have
// run are listed by ID and counted as skipped, neither passed nor failed.
func TestVariantsAfterAFailedStepAreSkipped(t *testing.T) {
	res, err := Run(context.Background(), Config{Target: reference.InProcess(),
		Features: fstest.MapFS{"skip.feature": {Data: []byte(skipFeature)}}})
	if err != nil {
		t.Fatal(err)
	}
	sc := res.Scenarios[0]
	var statuses []string
	for _, st := range sc.Steps {
		statuses = append(statuses, string(st.Status))
	}
	if want := []string{"passed", "passed", "failed", "skipped", "skipped"}; !slices.Equal(statuses, want) {
		t.Errorf("step statuses %q, want %q", statuses, want)
	}
	if len(sc.Cases) != 0 || len(sc.SkippedCases) < 20 || sc.SkippedCases[0] != "review_status/approved/upstream_status#404" {
		t.Fatalf("cases %d, skipped cases %d (%q…): want none run, the one named first, then every variant of the example", len(sc.Cases), len(sc.SkippedCases), sc.SkippedCases[:min(3, len(sc.SkippedCases))])
	}
	for _, id := range sc.SkippedCases[1:] {
		if !strings.HasPrefix(id, "review_status/approved/") {
			t.Errorf("skipped case %q is not of review_status/approved", id)
		}
	}
	if s := res.Summary; s.CasesSkipped != len(sc.SkippedCases) || s.Cases != 0 || s.Failed != 1 {
		t.Errorf("summary %+v: want the skipped cases counted apart", s)
	}
	if sc.Status != reports.Failed {
		t.Errorf("status %s, want failed", sc.Status)
	}
}
