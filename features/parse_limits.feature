@upstream-v1
Feature: Parse limits (R1, R2, R4)
  The adapter reads with a byte limit and a depth limit and parses strictly:
  no NaN or Infinity, no truncated document, nothing after the document, no
  byte order mark, no invalid UTF-8, no lone surrogate.

  Scenario: one byte past the byte limit is rejected at the transport gate
    Given the upstream answers GET /reviews/CR-1042 with a body one byte past the adapter's byte limit
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "transport" and reason "byte_limit" for that request

  Scenario: a body far past the byte limit is cut off, not read whole
    Given the upstream answers GET /reviews/CR-1042 with a generated body of 67108864 bytes
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And the audit records gate "transport" and reason "byte_limit" for that request
    And the adapter stopped reading before the end of the body

  @strict
  Scenario: a document nested one level past the depth limit is rejected
    Given the upstream answers GET /reviews/CR-1042 with a document nested one level past the adapter's depth limit
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "parse" and reason "depth_limit" for that request

  @strict
  Scenario Outline: a broken document is rejected at the parse gate: <case>
    Given the upstream answers GET <path> with fixture "<fixture>"
    When the agent calls "<tool>" with <arguments>
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "parse" and reason "<reason>" for that request, with the sha256 of the served body

    Examples:
      | case           | tool          | path                                     | arguments                                                    | fixture                           | reason            |
      | NaN            | run_status    | /projects/bluebird/runs/run_7Hq2LmX9pQ4s | {"project_id": "bluebird", "run_id": "run_7Hq2LmX9pQ4s"}     | run_status/rejects/nan.json               | nonfinite_number  |
      | Infinity       | run_status    | /projects/bluebird/runs/run_7Hq2LmX9pQ4s | {"project_id": "bluebird", "run_id": "run_7Hq2LmX9pQ4s"}     | run_status/rejects/infinity.json          | nonfinite_number  |
      | truncated      | review_status | /reviews/CR-1042                         | {"change_id": "CR-1042"}                                     | review_status/rejects/truncated.json      | truncated         |
      | trailing data  | review_status | /reviews/CR-1042                         | {"change_id": "CR-1042"}                                     | review_status/rejects/trailing_data.json  | trailing_data     |
      | byte order mark| review_status | /reviews/CR-1042                         | {"change_id": "CR-1042"}                                     | review_status/rejects/bom.json            | bom               |
      | invalid UTF-8  | review_status | /reviews/CR-1042                         | {"change_id": "CR-1042"}                                     | review_status/rejects/invalid_utf8.json   | invalid_utf8      |
      | lone surrogate | review_status | /reviews/CR-1042                         | {"change_id": "CR-1042"}                                     | review_status/rejects/lone_surrogate.json | invalid_surrogate |

  Scenario: an HTML page with status 200 is not taken for JSON
    Given the upstream answers GET /reviews/CR-1042 with status 200 and an HTML page
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
    And the audit records gate "parse" and reason "content_type" for that request
