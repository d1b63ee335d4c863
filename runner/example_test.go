package runner_test

import (
	"context"
	"fmt"
	"testing/fstest"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/targets"
)

func ExampleRun() {
	feature := `Feature: R20
  Scenario: one unexpected property
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved.json"
    And the upstream adds the property "admin_override" carrying a canary
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
`
	res, err := runner.Run(context.Background(), runner.Config{
		Features: fstest.MapFS{"r20.feature": {Data: []byte(feature)}},
		Fixtures: toolcert.Fixtures(),
		Target:   reference.InProcess(),
		Profile:  targets.DefaultProfile(),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d passed, %d failed, %d leaks\n", res.Summary.Passed, res.Summary.Failed, res.Summary.Leaks)
	// Output: 1 passed, 0 failed, 0 leaks
}

func ExampleReplay() {
	res, err := runner.Replay(context.Background(), runner.ReplayConfig{
		Tool:    "review_status",
		Args:    []byte(`{"change_id": "CR-1042"}`),
		Body:    []byte(`{"change_id": "CR-1042", "decision": "approved", "reviewed_by": "alice", "note": "{{canary:note}}"}`),
		Status:  200,
		Target:  reference.InProcess(),
		Profile: targets.DefaultProfile(),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Requests, res.Verdict)
	// Output: 1 no leak
}
