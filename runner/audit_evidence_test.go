package runner

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/adapters/mutant"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
)

// TestAuditMismatchSaysBoth: when the audit records another gate, reason
// or decision than the step wants, the first line of the error (what the
// console prints) and the audit evidence say what it records and what was
// wanted, and the evidence keeps the diff.
func TestAuditMismatchSaysBoth(t *testing.T) {
	target, err := mutant.InProcess("audit-one-reason") // records every rejection as schema, schema_violation
	if err != nil {
		t.Fatal(err)
	}
	const duplicate = `    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/rejects/duplicate_plain.json"
    When the agent calls "review_status" with {"change_id": "CR-1042"}
`
	feature := "Feature: mismatch\n" +
		"  Scenario: gate and reason\n" + duplicate +
		`    Then the audit records gate "parse" and reason "duplicate_name" for that request` + "\n" +
		"  Scenario: gate\n" + duplicate +
		`    Then the audit records gate "parse" for that request` + "\n" + `
  Scenario: decision
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved.json"
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the audit records the decision "deny" with reason "grant_missing"
`
	res, err := Run(context.Background(), Config{
		Features: fstest.MapFS{"mismatch.feature": {Data: []byte(feature)}},
		Fixtures: toolcert.Fixtures(), Target: target, Profile: targets.DefaultProfile(), Concurrency: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"gate and reason": "the audit records gate schema, reason schema_violation; want gate parse, reason duplicate_name",
		"gate":            "the audit records gate schema, reason schema_violation; want gate parse",
		"decision":        "the audit records decision allow, reason ok; want decision deny, reason grant_missing",
	}
	if len(res.Scenarios) != len(want) {
		t.Fatalf("%d scenarios, want %d", len(res.Scenarios), len(want))
	}
	for _, sc := range res.Scenarios {
		msg := want[sc.Name]
		if first, _, _ := strings.Cut(sc.Error, "\n"); sc.Status != reports.Failed || !strings.HasPrefix(first, msg) {
			t.Errorf("%s: %s, error line %q; want failed, %q", sc.Name, sc.Status, first, msg)
		}
		var found bool
		for _, e := range sc.Evidence {
			found = found || e.Kind == reports.EvidenceAudit && e.Message == msg && strings.Contains(e.Diff, "-") && strings.Contains(e.Diff, "+")
		}
		if !found {
			t.Errorf("%s: evidence %+v, want audit evidence %q with its diff", sc.Name, sc.Evidence, msg)
		}
	}
}
