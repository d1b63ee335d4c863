@upstream-v1 @strict
Feature: The first useful test (R20)
  A nearly valid response with one unexpected property must not reach the
  agent in any part. If this fails, there is no tool contract yet: only a
  JSON parser stands between the agent and the upstream.

  Scenario: a nearly valid review with one unexpected property leaks nothing
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved.json"
    And the upstream adds the property "admin_override" carrying a canary
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "schema" for that request, with the sha256 of the served body
