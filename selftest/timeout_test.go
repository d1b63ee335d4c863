package selftest_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/toolcert/toolcert/adapters/mutant"
	"github.com/toolcert/toolcert/runner"
)

// persistent503 is two scenarios whose upstream answers 503 on every
// attempt.
const persistent503 = `Feature: retries past the call timeout
  Scenario: a persistent 503, once
    Given the upstream answers GET /reviews/CR-1042 with status 503
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure UPSTREAM_UNAVAILABLE, retryable

  Scenario: a persistent 503, twice
    Given the upstream answers GET /reviews/CR-1042 with status 503
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure UPSTREAM_UNAVAILABLE, retryable
`

// TestCallTimeoutCountsTheRequests: an adapter that retries without bound
// is still asking the upstream when the harness stops waiting; the
// evidence counts its requests and says when they came, and the run warns
// once (not once per call) that its retries outlast the profile.
func TestCallTimeoutCountsTheRequests(t *testing.T) {
	tgt, err := mutant.InProcess("unbounded-retries")
	if err != nil {
		t.Fatal(err)
	}
	var progress bytes.Buffer
	res, err := runner.Run(context.Background(), runner.Config{
		Target: tgt, Features: fstest.MapFS{"retries.feature": {Data: []byte(persistent503)}}, Progress: &progress, Concurrency: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range res.Scenarios {
		msg := ""
		for _, ev := range sc.Evidence {
			msg += ev.Message + "\n"
		}
		for _, want := range []string{"meanwhile the upstream received", "request(s): GET /reviews/CR-1042 503 at ", "past the profile's deadline of 2s: the target was still asking"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: the evidence does not say %q:\n%s", sc.Name, want, msg)
			}
		}
		if len(sc.Requests) < 3 {
			t.Errorf("%s: %d upstream requests kept in the result, want every one", sc.Name, len(sc.Requests))
		}
	}
	if n := strings.Count(progress.String(), "warning: a call got no answer within the call timeout"); n != 1 {
		t.Errorf("the warning came %d times, want once:\n%s", n, progress.String())
	}
}
