package gate

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/protocol"
)

func TestEnvelopes(t *testing.T) {
	success, err := Success("review_status", "req.abcdefgh", map[string]any{"b": json.Number("2"), "a": "<x>"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		got  []byte
		want string
	}{
		{name: "success", got: success,
			want: `{"tool":"review_status","request_id":"req.abcdefgh","outcome":"success","data":{"a":"\u003cx\u003e","b":2}}`},
		{name: "failure", got: Failure("review_status", "req.abcdefgh", protocol.CodeInvalidResponse, false),
			want: `{"tool":"review_status","request_id":"req.abcdefgh","outcome":"failure","error":{"code":"INVALID_RESPONSE","retryable":false}}`},
		{name: "failure escapes", got: Failure("a\"b", "req.abcdefgh", protocol.CodeUpstreamUnavailable, true),
			want: `{"tool":"a\"b","request_id":"req.abcdefgh","outcome":"failure","error":{"code":"UPSTREAM_UNAVAILABLE","retryable":true}}`},
		{name: "pending approval", got: PendingApproval("send_email", "req.abcdefgh", "apr.1"),
			want: `{"tool":"send_email","request_id":"req.abcdefgh","outcome":"pending_approval","approval_id":"apr.1"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, string(tt.got)); diff != "" {
				t.Errorf("envelope (-want +got):\n%s", diff)
			}
			if _, err := ParseJSON(tt.got, Limits{}); err != nil {
				t.Errorf("envelope is not strict JSON: %v", err)
			}
		})
	}
}

func TestRejectionCode(t *testing.T) {
	type code struct {
		Code      protocol.Code
		Retryable bool
	}
	tests := []struct {
		gate   protocol.Gate
		reason string
		want   code
	}{
		{protocol.GateTransport, protocol.ReasonStatus404, code{protocol.CodeNotFound, false}},
		{protocol.GateTransport, protocol.ReasonStatus429, code{protocol.CodeUpstreamUnavailable, true}},
		{protocol.GateTransport, protocol.ReasonStatus5xx, code{protocol.CodeUpstreamUnavailable, true}},
		{protocol.GateTransport, protocol.ReasonConnection, code{protocol.CodeUpstreamUnavailable, true}},
		{protocol.GateTransport, protocol.ReasonTimeout, code{protocol.CodeUpstreamUnavailable, true}},
		{protocol.GateTransport, protocol.ReasonDeadline, code{protocol.CodeUpstreamUnavailable, true}},
		{protocol.GateTransport, protocol.ReasonStatus4xx, code{protocol.CodeUpstreamUnavailable, false}},
		{protocol.GateTransport, protocol.ReasonUnexpectedStatus, code{protocol.CodeInvalidResponse, false}},
		{protocol.GateTransport, protocol.ReasonByteLimit, code{protocol.CodeInvalidResponse, false}},
		{protocol.GateParse, protocol.ReasonDuplicateName, code{protocol.CodeInvalidResponse, false}},
		{protocol.GateSchema, protocol.ReasonSchemaViolation, code{protocol.CodeInvalidResponse, false}},
		{protocol.GateSemantic, protocol.ReasonStale, code{protocol.CodeInvalidResponse, false}},
		{protocol.GateAuthz, protocol.ReasonArgumentsInvalid, code{protocol.CodeDenied, false}},
	}
	for _, tt := range tests {
		t.Run(string(tt.gate)+"/"+tt.reason, func(t *testing.T) {
			c, r := (&Rejection{Gate: tt.gate, Reason: tt.reason}).Code()
			if diff := cmp.Diff(tt.want, code{c, r}); diff != "" {
				t.Errorf("code (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewRequestID(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := NewRequestID()
		if !protocol.ValidRequestID(id) || len(id) != 24 {
			t.Fatalf("NewRequestID() = %q, does not match %s", id, protocol.RequestIDPattern)
		}
		if seen[id] {
			t.Fatalf("NewRequestID() repeated %q", id)
		}
		seen[id] = true
	}
}
