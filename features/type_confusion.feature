@upstream-v1 @strict
Feature: Type confusion (R10, M2)
  A boolean is not a number and a number is not a string: the closed
  contract's types are enforced, not coerced.

  Scenario: a boolean where an integer belongs
    Given the upstream answers GET /projects/bluebird/runs/run_7Hq2LmX9pQ4s with:
      """
      {"project_id": "bluebird", "kind": "run", "run_id": "run_7Hq2LmX9pQ4s", "state": "failed",
       "observed_at": "{{now-30s}}", "attempt": true, "message": "{{canary:message}}"}
      """
    When the agent calls "run_status" with {"project_id": "bluebird", "run_id": "run_7Hq2LmX9pQ4s"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "schema" for that request

  Scenario: a number where a string belongs
    Given the upstream answers GET /deployments/staging with:
      """
      {"environment": "staging", "revision": 1234567, "state": "healthy", "deployer": "{{canary:deployer}}"}
      """
    When the agent calls "deploy_status" with {"environment": "staging"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "schema" for that request

  Scenario: a fractional number where an integer belongs
    Given the upstream answers GET /projects/bluebird/runs/run_7Hq2LmX9pQ4s with:
      """
      {"project_id": "bluebird", "kind": "run", "run_id": "run_7Hq2LmX9pQ4s", "state": "failed",
       "observed_at": "{{now-30s}}", "attempt": 1.5, "message": "{{canary:message}}"}
      """
    When the agent calls "run_status" with {"project_id": "bluebird", "run_id": "run_7Hq2LmX9pQ4s"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent

  Scenario: a value outside the enum
    Given the upstream answers GET /reviews/CR-1042 with:
      """
      {"change_id": "CR-1042", "decision": "approved_with_override", "reviewed_by": "alice", "comment": "{{canary:comment}}"}
      """
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "schema" for that request
