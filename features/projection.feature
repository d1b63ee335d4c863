@upstream-v1
Feature: Projection into a new closed object (R12)
  An accepted vendor response reaches the agent only as a new object with
  exactly the contract's fields. Vendor headers, diagnostic URLs, free-text
  messages and the vendor's own ids stay out.

  Scenario: an accepted review is projected to exactly the contract's fields
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved_vendor.json"
    And the upstream sets the header "X-Debug-Url" to a canary
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees success with data:
      """
      {"change_id": "CR-1042", "decision": "approved", "reviewed_by": "alice@example.com"}
      """
    And the agent's request_id is its own
    And no canary reaches the agent
    And the audit records gate "none" and reason "ok" for that request, with the sha256 of the served body

  Scenario: an accepted run is projected with its observation time
    Given the upstream answers GET /projects/bluebird/runs/run_7Hq2LmX9pQ4s with fixture "run_status/accepted/failed_vendor.json"
    When the agent calls "run_status" with {"project_id": "bluebird", "run_id": "run_7Hq2LmX9pQ4s"}
    Then the agent sees success with data:
      """
      {"project_id": "bluebird", "run_id": "run_7Hq2LmX9pQ4s", "state": "failed", "observed_at": "{{now-30s}}"}
      """
    And no canary reaches the agent
    And the audit records gate "none" for that request, with the sha256 of the served body

  Scenario: a minimal accepted run passes unchanged
    Given the upstream answers GET /projects/bluebird/runs/run_7Hq2LmX9pQ4s with fixture "run_status/accepted/failed.json"
    When the agent calls "run_status" with {"project_id": "bluebird", "run_id": "run_7Hq2LmX9pQ4s"}
    Then the agent sees success with data:
      """
      {"project_id": "bluebird", "run_id": "run_7Hq2LmX9pQ4s", "state": "failed", "observed_at": "{{now-30s}}"}
      """
    And no canary reaches the agent

  Scenario: an accepted deployment carries no vendor field
    Given the upstream answers GET /deployments/staging with:
      """
      {"environment": "staging", "revision": "a83f19c", "state": "degraded", "deployed_at": "{{now-2h}}",
       "deployer": "{{canary:deployer}}", "request_id": "{{canary:vendor_request_id}}"}
      """
    When the agent calls "deploy_status" with {"environment": "staging"}
    Then the agent sees success with data:
      """
      {"environment": "staging", "revision": "a83f19c", "state": "degraded"}
      """
    And no canary reaches the agent
