package protocol

import (
	"bytes"
	_ "embed"
)

// DraftURI is the only $schema a pinned schema may declare: JSON Schema
// Draft 2020-12.
const DraftURI = "https://json-schema.org/draft/2020-12/schema"

var (
	//go:embed schemas/envelope.json
	envelopeSchema []byte
	//go:embed schemas/decision.json
	decisionSchema []byte
	//go:embed schemas/audit-event.json
	auditEventSchema []byte
	//go:embed schemas/refund-order.json
	refundOrderSchema []byte
)

// EnvelopeSchema returns a copy of the closed Draft 2020-12 schema every
// agent-visible body satisfies, whatever the tool: the success, failure and
// pending_approval envelopes. A tool's own agent contract narrows it.
func EnvelopeSchema() []byte { return bytes.Clone(envelopeSchema) }

// DecisionSchema returns a copy of the closed Draft 2020-12 schema of a
// Decision record: the fields, the closed lists and A4's rule that allow
// stands only with valid arguments, an allowlisted tool and reason ok.
func DecisionSchema() []byte { return bytes.Clone(decisionSchema) }

// AuditEventSchema returns a copy of the closed Draft 2020-12 schema of one
// audit log line.
func AuditEventSchema() []byte { return bytes.Clone(auditEventSchema) }

// RefundOrderSchema returns a copy of the closed Draft 2020-12 schema of
// request_refund's trusted order record (GET /orders/{order_id}), the
// upstream answer a refund proposal is checked against.
func RefundOrderSchema() []byte { return bytes.Clone(refundOrderSchema) }
