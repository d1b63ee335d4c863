package mutant

import (
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/gate"
)

// auditMutants returns the mutants whose audit log misstates what
// happened, by name: the adapter behaves, its record does not.
func auditMutants() map[string]mutant {
	edit := func(f func(*gate.Event)) func(reference.Config) []reference.Option {
		return func(reference.Config) []reference.Option { return []reference.Option{reference.WithAuditEdit(f)} }
	}
	return map[string]mutant{
		"audit-counts-one-attempt": {
			"the audit records one attempt per call, however many requests the retries sent",
			edit(func(ev *gate.Event) { ev.Attempts = min(ev.Attempts, 1) }),
		},
		"audit-one-reason": {
			"the audit records every rejection as gate schema, reason schema_violation: a byte limit reads like a bad field",
			edit(func(ev *gate.Event) {
				if ev.Gate != gate.GateNone {
					ev.Gate, ev.Reason = gate.GateSchema, gate.ReasonSchemaViolation
				}
			}),
		},
		"audit-without-body-hash": {
			"the audit records no sha256 of the upstream bytes the adapter read",
			edit(func(ev *gate.Event) { ev.RawSHA256, ev.RawBytes = "", 0 }),
		},
	}
}
