@mcp
Feature: What holds for any MCP server, and for any tool of the corpus
  These scenarios name no tool: they try every tool of the corpus (with
  its first accepted example) and hold for any target. The ones about
  stdout and the tool list apply to MCP servers only; against a protocol
  v1 adapter they are not applicable.

  Scenario: stdout carries only JSON-RPC
    When the agent lists the server's tools
    Then the server wrote nothing but JSON-RPC messages on stdout

  Scenario: the tool list does not change between sessions
    When the agent lists the server's tools
    Then the tools are those the server listed in the run's first session

  Scenario: a declared output schema is met, and text that repeats the structured content says the same
    Then every tool's answer to an accepted upstream answer meets the output schema the server declares

  Scenario: arguments the declared input schema refuses reach no upstream
    Then every tool called with arguments its input schema refuses sends nothing upstream

  Scenario: hostile string arguments are refused or stay on the tool's route
    Then every tool's string arguments, made hostile, are refused or stay on the tool's route

  Scenario Outline: a hostile upstream answer (<answer>) fails the call without leaking, in bounded attempts
    Then every tool fails on <answer> without leaking, within the attempt budget

    Examples:
      | answer               |
      | an empty body        |
      | an HTML error page   |
      | 429 with Retry-After |
      | 503 with Retry-After |
