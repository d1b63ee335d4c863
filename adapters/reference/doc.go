// Package reference is the reference adapter: four read tools served over
// the target adapter protocol of docs/protocol.md, built from package gate.
//
// Each agent call goes through the pipeline of the protocol, in order:
// closed argument schema, bounded upstream fetch with retries, content type
// and strict parse, pinned closed vendor schema, binding to the request and
// freshness, projection to the agent contract (validated before it is
// sent). The agent gets the success envelope or the fixed failure envelope;
// the operator gets one audit event per call.
//
// [New] builds an [Adapter] (an http.Handler) from a [Config]; [Serve]
// listens and serves until its context ends. The Options of this package
// exist for mutation testing (package adapters/mutant replaces exactly one
// stage with them); with no options the adapter is the safe reference.
package reference
