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

// TestRejectionCode: a rejection's code is the protocol's for its gate
// and reason (protocol's tests hold the table).
func TestRejectionCode(t *testing.T) {
	for _, g := range protocol.Gates() {
		for _, reason := range protocol.Reasons(g) {
			c, r := (&Rejection{Gate: g, Reason: reason}).Code()
			if wc, wr := protocol.CodeFor(g, reason); c != wc || r != wr {
				t.Errorf("%s %s: code %s, %v; want %s, %v", g, reason, c, r, wc, wr)
			}
		}
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
