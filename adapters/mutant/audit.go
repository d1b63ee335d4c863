package mutant

import (
	"github.com/toolcert/toolcert/adapters/internal/pipeline"
	"github.com/toolcert/toolcert/protocol"
)

// auditMutants returns the mutants whose audit log misstates what
// happened, by name: the adapter behaves, its record does not.
func auditMutants() map[string]mutant {
	edit := func(f func(*protocol.AuditEvent)) func(pipeline.Config) []pipeline.Option {
		return func(pipeline.Config) []pipeline.Option { return []pipeline.Option{pipeline.WithAuditEdit(f)} }
	}
	return map[string]mutant{
		"audit-counts-one-attempt": {
			"the audit records one attempt per call, however many requests the retries sent",
			edit(func(ev *protocol.AuditEvent) { ev.Attempts = min(ev.Attempts, 1) }),
		},
		"audit-one-reason": {
			"the audit records every rejection as gate schema, reason schema_violation: a byte limit reads like a bad field",
			edit(func(ev *protocol.AuditEvent) {
				if ev.Gate != protocol.GateNone {
					ev.Gate, ev.Reason = protocol.GateSchema, protocol.ReasonSchemaViolation
				}
			}),
		},
		"audit-without-body-hash": {
			"the audit records no sha256 of the upstream bytes the adapter read",
			edit(func(ev *protocol.AuditEvent) { ev.RawSHA256, ev.RawBytes = "", 0 }),
		},
	}
}
