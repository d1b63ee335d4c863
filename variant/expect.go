package variant

import "github.com/toolcert/toolcert/protocol"

// Expectation constructors, one per kind of outcome of docs/protocol.md.

// rejected is the failure of a rejection at gate g with reason, with the
// code docs/protocol.md gives it.
func rejected(g protocol.Gate, reason string) Expect {
	code, retryable := protocol.CodeFor(g, reason)
	return Expect{Outcome: protocol.OutcomeFailure, Code: code, Retryable: retryable, Gate: string(g), Reason: reason}
}

// parseFault is a rejection by the parse gate.
func parseFault(reason string) Expect { return rejected(protocol.GateParse, reason) }

// schemaFault is a rejection by the schema gate.
func schemaFault() Expect { return rejected(protocol.GateSchema, protocol.ReasonSchemaViolation) }

// semanticFault is a rejection by the semantic gate.
func semanticFault(reason string) Expect { return rejected(protocol.GateSemantic, reason) }

// textFault is a key_value document the parse gate refuses.
func textFault() Expect { return parseFault(protocol.ReasonTextFormat) }

// accepted is the success of an example: its agent data, exactly.
func (x *example) accepted() Expect {
	return Expect{Outcome: protocol.OutcomeSuccess, Gate: string(protocol.GateNone), Reason: protocol.ReasonOK, Data: x.acc.Expect}
}

// statusExpect is what a correct adapter answers to a non-200 status: the
// transport rejection of protocol.StatusReason.
func statusExpect(status int) Expect {
	return rejected(protocol.GateTransport, protocol.StatusReason(status))
}
