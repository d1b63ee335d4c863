@upstream-v1 @strict
Feature: Closed objects (R5)
  Every object the contract owns is closed: an unexpected property at any
  level is rejected, and composition with allOf is closed with
  unevaluatedProperties, not left open by additionalProperties.

  Scenario: an unexpected top-level property is rejected
    Given the upstream answers GET /deployments/staging with fixture "deploy_status/accepted/healthy.json"
    And the upstream adds the property "rollout_hint" carrying a canary
    When the agent calls "deploy_status" with {"environment": "staging"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "schema" and reason "schema_violation" for that request

  Scenario: an unexpected property in a nested object is rejected
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved_vendor.json"
    And the upstream adds the property "prefetch" carrying a canary at "/links"
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "schema" for that request

  Scenario: a property whose name is a canary is rejected and its name never surfaces
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved.json"
    And the upstream adds a property named by a canary
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent

  Scenario: an unexpected property beside an allOf composition is rejected
    Given the upstream answers GET /projects/bluebird/runs/run_7Hq2LmX9pQ4s with fixture "run_status/accepted/failed.json"
    And the upstream adds the property "force_rerun" carrying a canary
    When the agent calls "run_status" with {"project_id": "bluebird", "run_id": "run_7Hq2LmX9pQ4s"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "schema" for that request

  Scenario: an unexpected property inside a nested object of an allOf composition is rejected
    Given the upstream answers GET /projects/bluebird/runs/run_7Hq2LmX9pQ4s with fixture "run_status/accepted/failed_vendor.json"
    And the upstream adds the property "sudo" carrying a canary at "/trigger"
    When the agent calls "run_status" with {"project_id": "bluebird", "run_id": "run_7Hq2LmX9pQ4s"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "schema" for that request
