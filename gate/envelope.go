package gate

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/toolcert/toolcert/protocol"
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
	head(&b, tool, requestID, protocol.OutcomeSuccess)
	b.WriteString(`,"data":`)
	b.Write(d)
	b.WriteString("}")
	return b.Bytes(), nil
}

// Failure returns the fixed failure envelope
// {"tool","request_id","outcome":"failure","error":{"code","retryable"}}.
// It carries nothing else: no upstream text, no validator message.
func Failure(tool, requestID string, code protocol.Code, retryable bool) []byte {
	var b bytes.Buffer
	head(&b, tool, requestID, protocol.OutcomeFailure)
	b.WriteString(`,"error":{"code":`)
	b.Write(quote(string(code)))
	fmt.Fprintf(&b, `,"retryable":%t}}`, retryable)
	return b.Bytes()
}

// PendingApproval returns the envelope
// {"tool","request_id","outcome":"pending_approval","approval_id"}.
func PendingApproval(tool, requestID, approvalID string) []byte {
	var b bytes.Buffer
	head(&b, tool, requestID, protocol.OutcomePendingApproval)
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
// rejection: [protocol.CodeFor] of its gate and reason.
func (r *Rejection) Code() (code protocol.Code, retryable bool) {
	return protocol.CodeFor(r.Gate, r.Reason)
}
