@calls
Feature: A model's refund proposal: parsed, structured, checked against the trusted order, never executed (M1-M6)
  request_refund is a model's proposal. It is parsed whole and strictly,
  checked for structure, then against the upstream's trusted order record:
  the order belongs to the session's account, the amount is within the
  refundable balance, the currency is right. Success only creates a
  proposal pending human review: POST /refunds is never called.

  Background:
    Given the upstream answers GET /orders/ord_A1B2C3 with:
      """
      {"order_id": "ord_A1B2C3", "account_id": "acct-100", "refundable_cents": 2500, "currency": "USD"}
      """

  Scenario: a valid proposal only yields requires_human_review
    When the agent calls "request_refund" with {"order_id": "ord_A1B2C3", "amount_cents": 2500, "reason": "duplicate charge"}
    Then the agent sees success with data:
      """
      {"status": "requires_human_review", "order_id": "ord_A1B2C3", "amount_cents": 2500}
      """
    And the upstream received 1 request to GET /orders/ord_A1B2C3
    And the upstream received 0 requests to POST /refunds

  Scenario: an amount over the refundable balance is denied
    When the agent calls "request_refund" with {"order_id": "ord_A1B2C3", "amount_cents": 2501, "reason": "duplicate charge"}
    Then the agent sees the failure DENIED, not retryable
    And the upstream received 0 requests to POST /refunds
    And the audit records gate "semantic" and reason "amount_exceeds_balance" for that request

  Scenario: a boolean amount is denied before any request
    When the agent calls "request_refund" with {"order_id": "ord_A1B2C3", "amount_cents": true, "reason": "duplicate charge"}
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request

  Scenario: a proposal with duplicate keys is denied before any request
    When the agent calls "request_refund" with the raw body:
      """
      {"arguments": {"order_id": "ord_A1B2C3", "amount_cents": 100, "amount_cents": 250000, "reason": "duplicate charge"}}
      """
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request

  Scenario: an order of another account is denied
    Given the agent's session is "other-token"
    When the agent calls "request_refund" with {"order_id": "ord_A1B2C3", "amount_cents": 100, "reason": "duplicate charge"}
    Then the agent sees the failure DENIED, not retryable
    And the upstream received 0 requests to POST /refunds
    And the audit records gate "semantic" and reason "binding_mismatch" for that request

  Scenario: a model-supplied account_id is never trusted
    Given the agent's session is "other-token"
    When the agent calls "request_refund" with {"order_id": "ord_A1B2C3", "amount_cents": 100, "reason": "duplicate charge", "account_id": "acct-100"}
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request

  Scenario: a model-supplied "approved": true is never trusted
    When the agent calls "request_refund" with {"order_id": "ord_A1B2C3", "amount_cents": 100, "reason": "duplicate charge", "approved": true}
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request

  Scenario: a streamed proposal cut before its end has no side effect
    When the agent's call to "request_refund" with {"order_id": "ord_A1B2C3", "amount_cents": 100, "reason": "duplicate charge"} is cut before its last byte
    Then the upstream received no request

  Scenario: a streamed email cut before its end is not sent
    When the agent's call to "send_email" with {"to": "ops@example.com", "subject": "deploy done", "body": "v1.4.2 is live"} is cut before its last byte
    Then the upstream received no request
