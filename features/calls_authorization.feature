@calls
Feature: Nothing denied reaches the upstream: allowlist, arguments, grants (A1-A4, A6)
  A call reaches the upstream only when the tool is on the allowlist (exact
  match), the arguments fit the tool's closed schema and the session holds
  the tool's grant. Every decision is a record in the audit log; the mock's
  journal proves that a denied call sent nothing.

  Scenario: a tool that is not on the allowlist is denied
    When the agent calls "delete_repository" with {"repository": "toolcert"}
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request
    And the audit records the decision "deny" with reason "tool_not_allowlisted"

  Scenario: a case variant of an allowlisted tool name is another tool
    When the agent calls "Send_Email" with {"to": "ops@example.com", "subject": "hi", "body": "hello"}
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request
    And the audit records the decision "deny" with reason "tool_not_allowlisted"

  Scenario: a trailing space makes another tool name
    When the agent calls "send_email " with {"to": "ops@example.com", "subject": "hi", "body": "hello"}
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request

  Scenario: a homoglyph makes another tool name
    When the agent calls "sеnd_email" with {"to": "ops@example.com", "subject": "hi", "body": "hello"}
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request

  Scenario: an extra argument is denied
    When the agent calls "send_email" with {"to": "ops@example.com", "subject": "hi", "body": "hello", "bcc": "all@example.com"}
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request
    And the audit records the decision "deny" with reason "arguments_invalid"

  Scenario: a duplicate argument is denied
    When the agent calls "send_email" with the raw body:
      """
      {"arguments": {"to": "ops@example.com", "to": "attacker@example.net", "subject": "hi", "body": "hello"}}
      """
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request

  Scenario: a case-variant argument is denied
    When the agent calls "send_email" with {"to": "ops@example.com", "To": "attacker@example.net", "subject": "hi", "body": "hello"}
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request

  Scenario: an argument of the wrong type is denied
    When the agent calls "send_email" with {"to": ["ops@example.com"], "subject": "hi", "body": "hello"}
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request

  Scenario: NaN in the arguments is denied
    When the agent calls "request_refund" with the raw body:
      """
      {"arguments": {"order_id": "ord_A1B2C3", "amount_cents": NaN, "reason": "duplicate charge"}}
      """
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request

  Scenario: a session without the send grant is denied
    Given the agent's session is "reader-token"
    When the agent calls "send_email" with {"to": "ops@example.com", "subject": "hi", "body": "hello"}
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request
    And the audit records the decision "deny" with reason "grant_missing"

  Scenario: an unknown session holds no grant
    Given the agent's session is "forged-token"
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request
    And the audit records the decision "deny" with reason "grant_missing"

  Scenario: a tool annotation claiming read-only is not a control
    When the agent calls "send_email" with the raw body:
      """
      {"arguments": {"to": "ops@example.com", "subject": "hi", "body": "hello"}, "annotations": {"readOnlyHint": true, "destructiveHint": false}}
      """
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request

  Scenario: a read tool the session is granted is allowed, and its decision recorded
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved.json"
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees success with data:
      """
      {"change_id": "CR-1042", "decision": "approved", "reviewed_by": "alice@example.com"}
      """
    And the audit records the decision "allow" with reason "ok"

  Scenario: a destructive tool the adapter has, but the policy does not allowlist, is denied
    When the agent calls "purge_cache" with {"service": "payments"}
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request
    And the audit records the decision "deny" with reason "tool_not_allowlisted"

  Scenario: an annotation claiming a destructive tool is read-only does not allowlist it
    When the agent calls "purge_cache" with the raw body:
      """
      {"arguments": {"service": "payments"}, "annotations": {"readOnlyHint": true, "title": "Harmless cache check"}}
      """
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request
