// Package reference is the reference adapter, built from package gate: four
// read tools and three call-side tools served over the target adapter
// protocol of docs/protocol.md.
//
// Every agent call is first decided (A1-A4): the whole body is read and
// parsed strictly (it must be exactly {"arguments": {...}}, optionally with
// "approval_id"; a body that ends early is never acted on), the arguments
// are checked against the tool's closed schema, and the policy
// ([Config].PolicyFile, see [gate.ParsePolicy]) decides from the
// allowlist and the grants of the session behind the bearer token. The
// decision record goes, validated, into the audit event; a denied call
// sends nothing upstream. Without a policy file the four read tools are
// allowed to any caller and the call-side tools are denied (not on the
// allowlist).
//
// A read tool then goes through the pipeline of the protocol, in order:
// bounded upstream fetch with retries, content type and strict parse,
// pinned closed vendor schema, binding to the request and freshness,
// projection to the agent contract (validated before it is sent).
// send_email, which the policy marks ask, answers pending_approval, and
// acts only on a second call carrying an approval a human granted
// (POST /v1/approvals/{id}) for the same arguments: one POST /emails,
// never retried, with the approval id as Idempotency-Key. purge_cache acts
// the same way (one POST /cache/purge) once the policy allows it.
// request_refund
// checks a model's proposal against the upstream's order record (owner,
// balance, currency) and, at best, answers that it requires human review.
// The agent gets the success, pending or fixed failure envelope; the
// operator gets one audit event per call.
//
// [New] builds an [Adapter] (an http.Handler) from a [Config]; [Serve]
// listens and serves until its context ends; [InProcess] serves it inside
// the harness. Its implementation, with the stages package adapters/mutant
// replaces one at a time, is internal (adapters/internal/pipeline).
package reference
