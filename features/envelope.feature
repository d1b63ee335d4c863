@upstream-v1
Feature: The result envelope (R6, R7)
  Success and failure are mutually exclusive; a result of one tool is never
  taken for another's; the request_id is the adapter's own.

  @strict
  Scenario: a success that also carries an error object is rejected
    Given the upstream answers GET /reviews/CR-1042 with:
      """
      {"change_id": "CR-1042", "decision": "approved", "reviewed_by": "alice",
       "error": {"code": "PARTIAL", "message": "{{canary:error_message}}"}}
      """
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "schema" for that request

  Scenario: another tool's result on this tool's route is rejected
    Given the upstream answers GET /reviews/CR-1042 with:
      """
      {"project_id": "bluebird", "kind": "run", "run_id": "run_7Hq2LmX9pQ4s", "state": "succeeded",
       "observed_at": "{{now-30s}}", "message": "{{canary:message}}"}
      """
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "schema" for that request

  Scenario: an upstream request_id is never echoed as the agent's
    Given the upstream answers GET /reviews/CR-1042 with:
      """
      {"change_id": "CR-1042", "decision": "approved", "reviewed_by": "alice", "request_id": "req.{{canary:forged_request_id}}"}
      """
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees success with data:
      """
      {"change_id": "CR-1042", "decision": "approved", "reviewed_by": "alice"}
      """
    And the agent's request_id is its own
    And no canary reaches the agent

  Scenario: a failure carries the adapter's own request_id and nothing else
    Given the upstream answers GET /reviews/CR-1042 with:
      """
      {"request_id": "req.{{canary:forged_request_id}}", "outcome": "failure", "error": {"code": "NOT_FOUND", "retryable": true}}
      """
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And the agent's request_id is its own
    And no canary reaches the agent
