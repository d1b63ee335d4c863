@upstream-v1
Feature: The agent's arguments are checked before any upstream request (A2)
  A tool call whose arguments do not fit the tool's closed argument schema is
  DENIED, and the upstream never hears of it.

  Scenario: an extra argument is denied without an upstream request
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved.json"
    When the agent calls "review_status" with {"change_id": "CR-1042", "include_comments": true}
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request
    And the audit records gate "authz" and reason "arguments_invalid" for that request

  Scenario: a path traversal in an id is denied without an upstream request
    When the agent calls "review_status" with {"change_id": "../admin/CR-1"}
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request

  Scenario: an unknown tool fails, DENIED where the server shows a code
    When the agent calls "review_status_v3" with {"change_id": "CR-1042"}
    Then the call fails, and its code is DENIED or the server shows no code
    And the upstream received no request

  Scenario: an unknown tool is denied without an upstream request
    When the agent calls "review_status_v2" with {"change_id": "CR-1042"}
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request
