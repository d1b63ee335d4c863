@upstream-v1
Feature: Null and arrays where an object belongs (R18)
  A document that parses is not yet a result: null, an array or a scalar
  where the contract promises an object is rejected whole.

  Scenario: null instead of the whole object
    Given the upstream answers GET /reviews/CR-1042 with:
      """
      null
      """
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And the audit records gate "schema" for that request

  Scenario: an array instead of the whole object
    Given the upstream answers GET /reviews/CR-1042 with:
      """
      [{"change_id": "CR-1042", "decision": "approved", "reviewed_by": "{{canary:reviewer}}"}]
      """
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "schema" for that request

  @strict
  Scenario: null instead of a nested object
    Given the upstream answers GET /projects/bluebird/runs/run_7Hq2LmX9pQ4s with:
      """
      {"project_id": "bluebird", "kind": "run", "run_id": "run_7Hq2LmX9pQ4s", "state": "failed",
       "observed_at": "{{now-30s}}", "trigger": null, "message": "{{canary:message}}"}
      """
    When the agent calls "run_status" with {"project_id": "bluebird", "run_id": "run_7Hq2LmX9pQ4s"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "schema" for that request

  @strict
  Scenario: an array instead of a nested object
    Given the upstream answers GET /reviews/CR-1042 with:
      """
      {"change_id": "CR-1042", "decision": "approved", "reviewed_by": "alice",
       "links": [{"html": "https://reviews.example/{{canary:link}}"}]}
      """
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "schema" for that request

  Scenario: an empty id is rejected
    Given the upstream answers GET /reviews/CR-1042 with:
      """
      {"change_id": "", "decision": "approved", "reviewed_by": "alice", "comment": "{{canary:comment}}"}
      """
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent

  @strict
  Scenario: an overlong string is rejected
    Given the upstream answers GET /reviews/CR-1042 with a review whose reviewer is 129 characters long
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "schema" for that request
