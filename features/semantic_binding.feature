@upstream-v1
Feature: Semantic binding to the request (R11)
  A structurally valid result about the wrong thing, or an old one, must fail
  the binding checks in code: the schema cannot know the request or the clock.

  Scenario: a result for another project fails the binding check
    Given the upstream answers GET /projects/bluebird/runs/run_7Hq2LmX9pQ4s with:
      """
      {"project_id": "copperhead", "kind": "run", "run_id": "run_7Hq2LmX9pQ4s", "state": "failed",
       "observed_at": "{{now-30s}}", "message": "{{canary:message}}"}
      """
    When the agent calls "run_status" with {"project_id": "bluebird", "run_id": "run_7Hq2LmX9pQ4s"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "semantic" and reason "binding_mismatch" for that request

  Scenario: a run that belongs to another request fails the binding check
    Given the upstream answers GET /projects/bluebird/runs/run_7Hq2LmX9pQ4s with:
      """
      {"project_id": "bluebird", "kind": "run", "run_id": "run_Zz9Yy8Xx7Ww6", "state": "succeeded",
       "observed_at": "{{now-30s}}", "message": "{{canary:message}}"}
      """
    When the agent calls "run_status" with {"project_id": "bluebird", "run_id": "run_7Hq2LmX9pQ4s"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "semantic" and reason "binding_mismatch" for that request

  Scenario: a stale observation fails the freshness check
    Given the upstream answers GET /projects/bluebird/runs/run_7Hq2LmX9pQ4s with:
      """
      {"project_id": "bluebird", "kind": "run", "run_id": "run_7Hq2LmX9pQ4s", "state": "failed",
       "observed_at": "{{stale}}", "message": "{{canary:message}}"}
      """
    When the agent calls "run_status" with {"project_id": "bluebird", "run_id": "run_7Hq2LmX9pQ4s"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "semantic" and reason "stale" for that request

  Scenario: an observation from the future fails the freshness check
    Given the upstream answers GET /projects/bluebird/runs/run_7Hq2LmX9pQ4s with:
      """
      {"project_id": "bluebird", "kind": "run", "run_id": "run_7Hq2LmX9pQ4s", "state": "failed",
       "observed_at": "{{future}}", "message": "{{canary:message}}"}
      """
    When the agent calls "run_status" with {"project_id": "bluebird", "run_id": "run_7Hq2LmX9pQ4s"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "semantic" and reason "future" for that request

  Scenario: a review of another change fails the binding check
    Given the upstream answers GET /reviews/CR-1042 with:
      """
      {"change_id": "CR-9999", "decision": "approved", "reviewed_by": "alice", "comment": "{{canary:comment}}"}
      """
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "semantic" and reason "binding_mismatch" for that request

  Scenario: a deployment of another environment fails the binding check
    Given the upstream answers GET /deployments/staging with:
      """
      {"environment": "production", "revision": "a83f19c", "state": "healthy", "deployer": "{{canary:deployer}}"}
      """
    When the agent calls "deploy_status" with {"environment": "staging"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "semantic" and reason "binding_mismatch" for that request
