package protocol

import (
	"encoding/json"
	"fmt"
	"time"
)

// The decisions of a decision record.
const (
	DecisionAllow = "allow"
	DecisionDeny  = "deny"
	DecisionAsk   = "ask"
)

// Decision is the decision record of one tool call (A3): the facts the
// call was decided from and the outcome. Its Reason is ReasonOK for allow
// and ask, otherwise ReasonToolNotAllowlisted, ReasonArgumentsInvalid or
// ReasonGrantMissing. DecisionSchema is its JSON Schema.
type Decision struct {
	// Tool is the tool called.
	Tool string `json:"tool"`
	// ArgumentsValid tells whether the arguments passed the tool's closed
	// argument schema.
	ArgumentsValid bool `json:"argumentsValid"`
	// ToolAllowed tells whether the tool is on the allowlist.
	ToolAllowed bool `json:"toolAllowed"`
	// Grant is the grant of the session that was considered ("" when
	// none).
	Grant string `json:"grant"`
	// Decision is DecisionAllow, DecisionDeny or DecisionAsk.
	Decision string `json:"decision"`
	// Reason says why.
	Reason string `json:"reason"`
}

// AuditEvent is one line of the operator audit log, with the fields of
// docs/protocol.md. AuditEventSchema is its JSON Schema.
type AuditEvent struct {
	// Time is when the call was decided; it is written first, in UTC with
	// milliseconds.
	Time time.Time `json:"-"`
	// RequestID is the request_id of the envelope the agent got.
	RequestID string `json:"request_id"`
	// Tool is the tool called (UnknownTool for one the adapter lacks).
	Tool string `json:"tool"`
	// AdapterVersion names the adapter and its version.
	AdapterVersion string `json:"adapter_version"`
	// Gate is the gate that decided; GateNone when accepted.
	Gate Gate `json:"gate"`
	// Reason is the gate's reason; ReasonOK when accepted.
	Reason string `json:"reason"`
	// Detail is operator-only text: validator message, parse error,
	// upstream status. It never reaches the agent.
	Detail string `json:"detail"`
	// Upstream is the request sent, nil when none was.
	Upstream *AuditUpstream `json:"upstream,omitempty"`
	// Attempts counts the upstream requests sent, 0 when none was.
	Attempts int `json:"attempts"`
	// RawSHA256 is the hex SHA-256 of the bytes read in the deciding
	// attempt; empty (and omitted) when no request was sent.
	RawSHA256 string `json:"raw_sha256,omitempty"`
	// RawBytes is the number of those bytes.
	RawBytes int `json:"raw_bytes"`
	// Decision is the call's decision record; omitted when nil.
	Decision *Decision `json:"decision,omitempty"`
}

// AuditUpstream is the upstream request of an AuditEvent.
type AuditUpstream struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	// Status is the HTTP status of the deciding attempt; omitted when no
	// response arrived.
	Status int `json:"status,omitempty"`
}

// MarshalJSON writes the event with "time" first, in UTC with milliseconds.
func (e AuditEvent) MarshalJSON() ([]byte, error) {
	type fields AuditEvent // without MarshalJSON
	return json.Marshal(struct {
		Time string `json:"time"`
		fields
	}{e.Time.UTC().Format("2006-01-02T15:04:05.000Z07:00"), fields(e)})
}

// UnmarshalJSON reads an event written by MarshalJSON.
func (e *AuditEvent) UnmarshalJSON(b []byte) error {
	type fields AuditEvent // without UnmarshalJSON
	var v struct {
		Time string `json:"time"`
		*fields
	}
	v.fields = (*fields)(e)
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("audit event: %w", err)
	}
	if v.Time == "" {
		e.Time = time.Time{}
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, v.Time)
	if err != nil {
		return fmt.Errorf("audit event time: %w", err)
	}
	e.Time = t
	return nil
}
