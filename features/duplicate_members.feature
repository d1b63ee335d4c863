@upstream-v1
Feature: Duplicate member names (R3)
  Parsers disagree on duplicate names: one keeps the first, another the
  last. The adapter must reject them while parsing, before the schema sees a
  model that has already lost the evidence.

  Scenario: a plain duplicate member is rejected at the parse gate
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/rejects/duplicate_plain.json"
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "parse" and reason "duplicate_name" for that request, with the sha256 of the served body

  Scenario: an escaped-equivalent duplicate member is rejected at the parse gate
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/rejects/duplicate_escaped.json"
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "parse" and reason "duplicate_name" for that request

  @strict
  Scenario: a case-variant member is rejected by the closed schema
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/rejects/duplicate_case.json"
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "schema" for that request

  Scenario: an approval that flips on its duplicate is rejected
    Given the upstream answers GET /reviews/CR-1042 with:
      """
      {"change_id": "CR-1042", "decision": "rejected", "reviewed_by": "{{canary:first_reviewer}}", "decision": "approved"}
      """
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
