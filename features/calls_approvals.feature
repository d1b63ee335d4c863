@calls
Feature: Human approval: single use, bound, expiring; the action reaches the upstream once (A5, M4, M6)
  send_email needs a human's approval. An approval is bound to the tool,
  the hash of the arguments and the request; it is single use and expires.
  Only an approved action reaches the upstream, exactly once, with an
  idempotency key.

  Background:
    Given the upstream answers POST /emails with status 202 and:
      """
      {"message_id": "msg-{{canary:message_id}}", "note": "{{canary:vendor_note}}"}
      """

  Scenario: ask, then approve: one upstream call with the approval as idempotency key
    When the agent calls "send_email" with {"to": "ops@example.com", "subject": "deploy done", "body": "v1.4.2 is live"}
    Then the agent sees the call pending approval
    And the upstream received no request
    And the audit records the decision "ask" with reason "ok"
    When a human approves the pending call
    And the agent calls "send_email" again with {"to": "ops@example.com", "subject": "deploy done", "body": "v1.4.2 is live"} and the approval
    Then the agent sees success with data:
      """
      {"status": "sent"}
      """
    And the upstream received 1 request to POST /emails with the approval as idempotency key
    And no canary reaches the agent

  Scenario: ask, then refuse: no call
    When the agent calls "send_email" with {"to": "ops@example.com", "subject": "deploy done", "body": "v1.4.2 is live"}
    Then the agent sees the call pending approval
    When a human refuses the pending call
    And the agent calls "send_email" again with {"to": "ops@example.com", "subject": "deploy done", "body": "v1.4.2 is live"} and the approval
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request

  Scenario: an approval used once cannot be replayed
    When the agent calls "send_email" with {"to": "ops@example.com", "subject": "deploy done", "body": "v1.4.2 is live"}
    And the agent sees the call pending approval
    And a human approves the pending call
    And the agent calls "send_email" again with {"to": "ops@example.com", "subject": "deploy done", "body": "v1.4.2 is live"} and the approval
    And the agent calls "send_email" again with {"to": "ops@example.com", "subject": "deploy done", "body": "v1.4.2 is live"} and the approval
    Then the agent sees the failure DENIED, not retryable
    And the upstream received 1 request to POST /emails with the approval as idempotency key

  Scenario: an expired approval means no call
    When the agent calls "send_email" with {"to": "ops@example.com", "subject": "deploy done", "body": "v1.4.2 is live"}
    And the agent sees the call pending approval
    And a human approves the pending call
    And the approval expires
    And the agent calls "send_email" again with {"to": "ops@example.com", "subject": "deploy done", "body": "v1.4.2 is live"} and the approval
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request

  Scenario: arguments changed after approval mean no call
    When the agent calls "send_email" with {"to": "ops@example.com", "subject": "deploy done", "body": "v1.4.2 is live"}
    And the agent sees the call pending approval
    And a human approves the pending call
    And the agent calls "send_email" again with {"to": "attacker@example.net", "subject": "deploy done", "body": "v1.4.2 is live"} and the approval
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request

  Scenario: an approval is not a grant: the same subject, with a token without send, cannot use it
    When the agent calls "send_email" with {"to": "ops@example.com", "subject": "deploy done", "body": "v1.4.2 is live"}
    And the agent sees the call pending approval
    And a human approves the pending call
    And the agent's session is "agent-1-read-token"
    And the agent calls "send_email" again with {"to": "ops@example.com", "subject": "deploy done", "body": "v1.4.2 is live"} and the approval
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request

  Scenario: an approval is bound to the session that asked: another session with the grant cannot spend it
    When the agent calls "send_email" with {"to": "ops@example.com", "subject": "deploy done", "body": "v1.4.2 is live"}
    And the agent sees the call pending approval
    And a human approves the pending call
    And the agent's session is "other-token"
    And the agent calls "send_email" again with {"to": "ops@example.com", "subject": "deploy done", "body": "v1.4.2 is live"} and the approval
    Then the agent sees the failure DENIED, not retryable
    And the upstream received no request
    And the audit records the decision "deny" with reason "grant_missing"
