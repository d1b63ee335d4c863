@strict
Feature: Upstream versions are certified one by one, never half-accepted (R19)
  The upstream names its version in X-Api-Version. An adapter accepts an
  answer only under the contract of a version it supports; an answer of
  another version, or one that claims no version but has the new shape, is
  rejected whole. The generated variants of each version's examples run
  against the adapter's declared support (--profile upstream_versions).

  Scenario: a v2 answer without its version header is not half-accepted as v1
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved_v2.json"
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent

  Scenario: an answer of an unknown upstream version is rejected cleanly
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved_vendor.json"
    And the upstream sets the header "X-Api-Version" to "v3"
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent

  Scenario: a v2 answer of a tool the adapter supports only in v1 is rejected cleanly
    Given the adapter does not support upstream version "v2" of "run_status"
    And the upstream answers GET /projects/bluebird/runs/run_Aa11Bb22Cc33 with fixture "run_status/accepted/running_v2.json"
    And the upstream sets the header "X-Api-Version" to "v2"
    When the agent calls "run_status" with {"project_id": "bluebird", "run_id": "run_Aa11Bb22Cc33"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
