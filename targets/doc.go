// Package target starts the adapter under test ("target") for one lane and
// calls its tools as an LLM agent would.
//
// A [Target] is a recipe: [Target.Start] launches one [Instance] wired to the
// lane's [Env] (mock upstream, listen address, audit and policy files). The
// drivers are [InProcess] (a handler served inside the harness: the reference
// adapter and the self-test's mutants), [Process] (a local executable started
// with the protocol's environment variables), [Container] (a local image run
// with testcontainers-go on the host's network) and [URL] (an adapter that is
// already running). Every driver waits for GET /healthz to answer 200 before
// Start returns, and every wait is bounded.
//
// [Client] is the agent's side: it posts tool calls and approvals and returns
// everything the agent would see as an [Output], reading at most a bounded
// number of bytes within a bounded time, never following redirects. Targets
// are hostile by design: nothing one sends can panic or hang the caller.
package targets
