@generated
Feature: Generated hostile variants of every accepted example (R18)
  From each accepted example of the corpus and its upstream schema, the
  generator derives variants by operator: an extra property at every level,
  a duplicate of every member, null and arrays for objects, a type swap for
  every leaf, enum, pattern, format and length breaks, NaN, truncation,
  trailing data, depth and byte limits, encoding faults, stale and future
  timestamps, wrong bound ids, a success carrying an error, a forged
  request_id, a leaf turned into advice, a 503. Each variant carries its own
  canaries, expects one outcome, and is reported as its own case with a
  one-line reproducer.

  Scenario: every variant of review_status
    Then every generated variant of "review_status" is handled as expected without leaking

  Scenario: every variant of run_status
    Then every generated variant of "run_status" is handled as expected without leaking

  Scenario: every variant of deploy_status
    Then every generated variant of "deploy_status" is handled as expected without leaking

  Scenario: every variant of host_uptime
    Then every generated variant of "host_uptime" is handled as expected without leaking
