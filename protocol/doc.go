// Package protocol is toolcert's target protocol, version 1, as
// docs/protocol.md states it: the facts that the adapter library (gate),
// the reference adapter and the harness that judges adapters must agree on,
// each written once here.
//
// It holds the agent-visible error codes and outcomes, the gates and their
// reasons, the rules that map an upstream status to a reason and a reason to
// a code, the default limits, the TOOLCERT_* environment names, the wire
// paths and headers, and the shapes of the envelope, the decision record and
// the audit event with their JSON Schemas.
//
// protocol is a leaf: it imports no other toolcert package, and it holds no
// logic that decides a verdict beyond those tables. How a document is read,
// parsed or validated is each side's own code: gate for adapters, the
// harness's judge for toolcert.
package protocol
