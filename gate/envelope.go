package gate

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Code is an agent-visible error code of the failure envelope.
type Code string

// The error codes of docs/protocol.md.
const (
	CodeNotFound            Code = "NOT_FOUND"
	CodeUpstreamUnavailable Code = "UPSTREAM_UNAVAILABLE"
	CodeInvalidResponse     Code = "INVALID_RESPONSE"
	CodeDenied              Code = "DENIED"
)

// The outcomes of an envelope.
const (
	OutcomeSuccess         = "success"
	OutcomeFailure         = "failure"
	OutcomePendingApproval = "pending_approval"
)

// Success returns the success envelope
// {"tool","request_id","outcome":"success","data"} with its keys in that
// order. data is marshalled with encoding/json (map keys sorted); it must be
// the projected object, never the upstream's.
func Success(tool, requestID string, data any) ([]byte, error) {
	d, err := marshal(data)
	if err != nil {
		return nil, fmt.Errorf("success envelope: %w", err)
	}
	var b bytes.Buffer
	head(&b, tool, requestID, OutcomeSuccess)
	b.WriteString(`,"data":`)
	b.Write(d)
	b.WriteString("}")
	return b.Bytes(), nil
}

// Failure returns the fixed failure envelope
// {"tool","request_id","outcome":"failure","error":{"code","retryable"}}.
// It carries nothing else: no upstream text, no validator message.
func Failure(tool, requestID string, code Code, retryable bool) []byte {
	var b bytes.Buffer
	head(&b, tool, requestID, OutcomeFailure)
	b.WriteString(`,"error":{"code":`)
	b.Write(quote(string(code)))
	fmt.Fprintf(&b, `,"retryable":%t}}`, retryable)
	return b.Bytes()
}

// PendingApproval returns the envelope
// {"tool","request_id","outcome":"pending_approval","approval_id"}.
func PendingApproval(tool, requestID, approvalID string) []byte {
	var b bytes.Buffer
	head(&b, tool, requestID, OutcomePendingApproval)
	b.WriteString(`,"approval_id":`)
	b.Write(quote(approvalID))
	b.WriteString("}")
	return b.Bytes()
}

// head writes the opening of an envelope up to the outcome.
func head(b *bytes.Buffer, tool, requestID, outcome string) {
	b.WriteString(`{"tool":`)
	b.Write(quote(tool))
	b.WriteString(`,"request_id":`)
	b.Write(quote(requestID))
	b.WriteString(`,"outcome":`)
	b.Write(quote(outcome))
}

// quote returns s as a JSON string (invalid UTF-8 replaced by U+FFFD).
func quote(s string) []byte {
	b, _ := json.Marshal(s) // a string always marshals
	return b
}

// marshal encodes v without a trailing newline.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Code returns the agent-visible error code and retryable flag for the
// rejection, per the table of docs/protocol.md: status_404 is NOT_FOUND;
// 5xx, 429, connection, timeout and deadline are UPSTREAM_UNAVAILABLE and
// retryable; another 4xx is UPSTREAM_UNAVAILABLE, not retryable; authz
// reasons are DENIED; everything else a gate rejects is INVALID_RESPONSE.
func (r *Rejection) Code() (code Code, retryable bool) {
	switch r.Gate {
	case GateAuthz:
		return CodeDenied, false
	case GateTransport:
		switch r.Reason {
		case ReasonStatus404:
			return CodeNotFound, false
		case ReasonStatus429, ReasonStatus5xx, ReasonConnection, ReasonTimeout, ReasonDeadline:
			return CodeUpstreamUnavailable, true
		case ReasonStatus4xx:
			return CodeUpstreamUnavailable, false
		}
	}
	return CodeInvalidResponse, false
}
