@upstream-v1
Feature: Formats are asserted, and timestamps parsed for real (R9)
  format is only an annotation unless the validator asserts it. The adapter
  must assert date-time and also parse the timestamp in code.

  Scenario: an impossible date-time is rejected
    Given the upstream answers GET /projects/bluebird/runs/run_7Hq2LmX9pQ4s with:
      """
      {"project_id": "bluebird", "kind": "run", "run_id": "run_7Hq2LmX9pQ4s", "state": "failed",
       "observed_at": "2026-13-45T25:61:00Z", "message": "{{canary:message}}"}
      """
    When the agent calls "run_status" with {"project_id": "bluebird", "run_id": "run_7Hq2LmX9pQ4s"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "schema" for that request

  Scenario: a timestamp in words is rejected
    Given the upstream answers GET /projects/bluebird/runs/run_7Hq2LmX9pQ4s with:
      """
      {"project_id": "bluebird", "kind": "run", "run_id": "run_7Hq2LmX9pQ4s", "state": "failed",
       "observed_at": "a few seconds ago", "message": "{{canary:message}}"}
      """
    When the agent calls "run_status" with {"project_id": "bluebird", "run_id": "run_7Hq2LmX9pQ4s"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent

  @strict
  Scenario: a malformed vendor timestamp outside the projection is still rejected
    Given the upstream answers GET /reviews/CR-1042 with:
      """
      {"change_id": "CR-1042", "decision": "approved", "reviewed_by": "alice", "updated_at": "yesterday {{canary:when}}"}
      """
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "schema" for that request
