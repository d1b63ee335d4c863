@transport @upstream-v1
Feature: Transport faults and bounded retries (R15)
  Only transport faults, 5xx and 429 are retried, within a bounded number of
  attempts and a total time budget. An error page never reaches the agent,
  and after a retry only fresh validated data does. Every count and every
  wait below comes from the adapter's profile (max_attempts, deadline,
  read_timeout); a scenario that needs a retry does not apply to an adapter
  whose budget is one attempt.

  Scenario: 404 is NOT_FOUND and is not retried
    Given the upstream answers GET /reviews/CR-1042 with status 404
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure NOT_FOUND, not retryable
    And no canary reaches the agent
    And the upstream received 1 request
    And the audit records gate "transport" and reason "status_404" for that request

  Scenario: a 404 fails, NOT_FOUND where the server shows a code
    Given the upstream answers GET /reviews/CR-1042 with status 404
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the call fails, and its code is NOT_FOUND or the server shows no code
    And no canary reaches the agent

  Scenario: a persistent 503 is retried up to the budget, then UPSTREAM_UNAVAILABLE
    Given the upstream answers GET /reviews/CR-1042 with status 503
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure UPSTREAM_UNAVAILABLE, retryable
    And no canary reaches the agent
    And the upstream received exactly the adapter's attempt budget of requests
    And the audit records as many attempts as the upstream received requests

  Scenario: 429 is retried within the budget
    Given the upstream answers GET /reviews/CR-1042 with status 429
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure UPSTREAM_UNAVAILABLE, retryable
    And no canary reaches the agent
    And the upstream received at most the adapter's attempt budget of requests

  Scenario: a 403 is not retried
    Given the upstream answers GET /reviews/CR-1042 with status 403
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure UPSTREAM_UNAVAILABLE, not retryable
    And no canary reaches the agent
    And the upstream received 1 request

  Scenario: a redirect is not followed
    Given the upstream answers GET /reviews/CR-1042 with status 302 and:
      """
      {"location_hint": "{{canary:redirect}}"}
      """
    And the upstream sets the header "Location" to "/reviews/CR-1042/elsewhere"
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the upstream received 1 request

  Scenario: a connection reset on every attempt is UPSTREAM_UNAVAILABLE within the budget
    Given the upstream resets the connection on GET /reviews/CR-1042
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure UPSTREAM_UNAVAILABLE, retryable
    And the upstream received at most the adapter's attempt budget of requests

  Scenario: an empty response is UPSTREAM_UNAVAILABLE within the budget
    Given the upstream closes the connection without answering GET /reviews/CR-1042
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure UPSTREAM_UNAVAILABLE, retryable
    And the upstream received at most the adapter's attempt budget of requests

  Scenario: a body cut short of its Content-Length never reaches the agent
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved_vendor.json"
    And the upstream cuts the body after 40 bytes and closes
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure UPSTREAM_UNAVAILABLE, retryable
    And no canary reaches the agent
    And the upstream received at most the adapter's attempt budget of requests

  @slow
  Scenario: an upstream that never answers times out within the budget
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved.json"
    And the upstream waits past the adapter's time budget before sending headers
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure UPSTREAM_UNAVAILABLE, retryable
    And the agent got its answer within the adapter's time budget
    And the upstream received at most the adapter's attempt budget of requests

  @slow
  Scenario: a dribble that beats the read timeout still hits the total deadline
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved_vendor.json"
    And the upstream dribbles the body within the read timeout until past the time budget
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent got its answer within the adapter's time budget
    And the agent sees the failure UPSTREAM_UNAVAILABLE, retryable
    And no canary reaches the agent
    And the audit records gate "transport" and reason "deadline" for that request

  # Retrying is protocol v1's policy: an adapter that gives a fixed failure
  # at the first 503 owes the agent no more at level safe.
  @strict
  Scenario: failures on every attempt but the last, then a valid answer: fresh validated data after the retries
    Given the upstream fails with status 503 on every attempt but the last on GET /reviews/CR-1042
    And the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved_vendor.json"
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent's text contains:
      """
      "decision":"approved"
      """
    And the agent sees success with data:
      """
      {"change_id": "CR-1042", "decision": "approved", "reviewed_by": "alice@example.com"}
      """
    And no canary reaches the agent
    And the upstream received exactly the adapter's attempt budget of requests
    And the audit records as many attempts as the upstream received requests

  @strict
  Scenario: after the retries, the agent's text names the reviewer
    Given the upstream fails with status 503 on every attempt but the last on GET /reviews/CR-1042
    And the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved_vendor.json"
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent's text contains "\"reviewed_by\":\"alice@example.com\""

  Scenario: a failure then an invalid answer: the retry's data is validated too
    Given the upstream first fails 1 time with status 502 on GET /reviews/CR-1042
    And the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved.json"
    And the upstream adds the property "admin_override" carrying a canary
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the upstream received 2 requests
    And the audit records 2 attempts
