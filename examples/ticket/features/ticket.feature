@upstream-v1
Feature: ticket_status, certified
  The adapter of ticket_status turns the vendor's GET /tickets/{ticket_id}
  into {ticket_id, status, assignee, updated_at}. The vendor's free text
  (body, url, labels, requester) must never reach the agent, and a ticket
  that is not the one asked for, or not recent, must be refused.

  Scenario: an open ticket reaches the agent as its four fields only
    Given the upstream answers GET /tickets/TCK-123 with fixture "ticket_status/accepted/open.json"
    When the agent calls "ticket_status" with {"ticket_id": "TCK-123"}
    Then the agent sees success with data:
      """
      {"ticket_id": "TCK-123", "status": "open", "assignee": "dana.ops", "updated_at": "{{now-30s}}"}
      """
    And the agent's request_id is its own
    And no canary reaches the agent
    And the agent's output does not contain "Ignore previous instructions"
    And the audit records gate "none" and reason "ok" for that request, with the sha256 of the served body

  Scenario: a ticket with one unexpected property leaks nothing
    Given the upstream answers GET /tickets/TCK-123 with fixture "ticket_status/accepted/open.json"
    And the upstream adds the property "internal_note" carrying a canary
    When the agent calls "ticket_status" with {"ticket_id": "TCK-123"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "schema" and reason "schema_violation" for that request

  Scenario: another ticket than the one asked for fails the binding check
    Given the upstream answers GET /tickets/TCK-123 with fixture "ticket_status/rejects/other_ticket.json"
    When the agent calls "ticket_status" with {"ticket_id": "TCK-123"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "semantic" and reason "binding_mismatch" for that request

  Scenario: a ticket last updated before the freshness window is stale
    Given the upstream answers GET /tickets/TCK-123 with:
      """
      {"ticket_id": "TCK-123", "status": "closed", "assignee": "sam", "updated_at": "{{stale}}", "body": "{{canary:body}}"}
      """
    When the agent calls "ticket_status" with {"ticket_id": "TCK-123"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "semantic" and reason "stale" for that request

  Scenario: an answer of a vendor version the adapter has not pinned is refused
    Given the upstream answers GET /tickets/TCK-123 with fixture "ticket_status/accepted/open.json"
    And the upstream sets the header "X-Api-Version" to "v2"
    When the agent calls "ticket_status" with {"ticket_id": "TCK-123"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "schema" and reason "unsupported_version" for that request

  Scenario: arguments outside the schema never reach the vendor
    When the agent calls "ticket_status" with {"ticket_id": "../admin"}
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request
    And the audit records gate "authz" and reason "arguments_invalid" for that request

  Scenario: a vendor outage is retried within the budget, then reported retryable
    Given the upstream answers GET /tickets/TCK-123 with status 503
    When the agent calls "ticket_status" with {"ticket_id": "TCK-123"}
    Then the agent sees the failure UPSTREAM_UNAVAILABLE, retryable
    And no canary reaches the agent
    And the upstream received exactly the adapter's attempt budget of requests
    And the audit records as many attempts as the upstream received requests
    And the agent got its answer within the adapter's time budget

  Scenario: a body one byte past the byte limit is refused
    Given the upstream answers GET /tickets/TCK-123 with a body one byte past the adapter's byte limit
    When the agent calls "ticket_status" with {"ticket_id": "TCK-123"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "transport" and reason "byte_limit" for that request

  Scenario: a body far past the byte limit is cut off, not read whole
    Given the upstream answers GET /tickets/TCK-123 with a generated body of 67108864 bytes
    When the agent calls "ticket_status" with {"ticket_id": "TCK-123"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And the audit records gate "transport" and reason "byte_limit" for that request
    And the adapter stopped reading before the end of the body

  Scenario: every generated variant of ticket_status
    Then every generated variant of "ticket_status" is handled as expected without leaking
