// Package gate is the library a connector owner builds a safe adapter from:
// the pieces that stand between an upstream service and an LLM agent.
//
// An adapter passes every upstream answer through the gates in order and
// stops at the first one that rejects it:
//
//   - transport: [Fetcher] sends the request with a bounded number of
//     attempts inside a total deadline, reads at most [Limits.MaxBytes]
//     bytes and never follows redirects;
//   - parse: [CheckContentType], then [ParseJSON] (strict: no BOM, valid
//     UTF-8, no lone surrogates, no duplicate names, no NaN or Infinity, one
//     whole document, bounded depth) or [ParseKeyValues] for text tools;
//   - schema: a [Schema] compiled from a pinned, closed Draft 2020-12
//     document with format assertions on and no loading of files or URLs;
//   - semantic: [Equal] binds the answer to the request, [Fresh] checks a
//     timestamp against a freshness window;
//   - projection: the adapter builds a new object with the contract's fields
//     only and answers with [Success], or with the fixed [Failure] envelope.
//
// Every gate rejects with a *[Rejection] naming the gate and a reason from a
// closed list; [Rejection.Code] maps it to the agent-visible error code. The
// rejection's Err is operator detail: it goes to the audit log ([AuditLog],
// [Event]) and never to the agent.
//
// In the other direction, a tool call reaches the upstream only when a
// [Policy] (see [ParsePolicy]) allows it: [Policy.Decide] records, as a
// [Decision] checked by [ValidateDecision], whether the tool is on the
// allowlist, the arguments are valid and the session holds the tool's
// grant; [Apply] is the rule that turns an unearned "allow" into "deny" or
// "ask". A call the policy marks ask waits for a human: [Approvals] binds
// each approval ([Binding]) to the tool, the [ArgumentsHash] of the call and
// the session's subject, and lets exactly one call through. [Fetcher.Post] sends the resulting request
// once, never retried.
package gate
