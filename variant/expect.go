package variant

import "github.com/toolcert/toolcert/gate"

// Expectation constructors, one per kind of outcome of docs/protocol.md.

// rejected is an INVALID_RESPONSE failure recorded at gate and reason.
func rejected(g gate.Gate, reason string) Expect {
	return Expect{Outcome: OutcomeFailure, Code: CodeInvalidResponse, Gate: string(g), Reason: reason}
}

// parseFault is a rejection by the parse gate.
func parseFault(reason string) Expect { return rejected(gate.GateParse, reason) }

// schemaFault is a rejection by the schema gate.
func schemaFault() Expect { return rejected(gate.GateSchema, gate.ReasonSchemaViolation) }

// semanticFault is a rejection by the semantic gate.
func semanticFault(reason string) Expect { return rejected(gate.GateSemantic, reason) }

// textFault is a key_value document the parse gate refuses.
func textFault() Expect { return parseFault(gate.ReasonTextFormat) }

// accepted is the success of an example: its agent data, exactly.
func (x *example) accepted() Expect {
	return Expect{Outcome: OutcomeSuccess, Gate: string(gate.GateNone), Reason: gate.ReasonOK, Data: x.acc.Expect}
}

// statusExpect is what a correct adapter answers to a non-200 status.
func statusExpect(status int) Expect {
	transport := func(code string, retry bool, reason string) Expect {
		return Expect{Outcome: OutcomeFailure, Code: code, Retryable: retry, Gate: string(gate.GateTransport), Reason: reason}
	}
	switch {
	case status == 404:
		return transport(CodeNotFound, false, gate.ReasonStatus404)
	case status == 429:
		return transport(CodeUpstreamUnavailable, true, gate.ReasonStatus429)
	case status >= 500 && status <= 599:
		return transport(CodeUpstreamUnavailable, true, gate.ReasonStatus5xx)
	case status >= 400 && status <= 499:
		return transport(CodeUpstreamUnavailable, false, gate.ReasonStatus4xx)
	}
	return transport(CodeInvalidResponse, false, gate.ReasonUnexpectedStatus)
}
