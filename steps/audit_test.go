package steps

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDecodeAuditEvent holds the audit line's reading: member names as the
// protocol writes them, a repeated member last-wins and invalid UTF-8 read
// as U+FFFD (as encoding/json reads them), a decision kept raw, null kept
// as null, and a member of the wrong type an error.
func TestDecodeAuditEvent(t *testing.T) {
	tests := []struct {
		line    string
		want    auditEvent
		wantErr bool
	}{
		{line: `{"request_id":"req.A","tool":"run_status","adapter_version":"reference/0.1.0","gate":"schema","reason":"schema_violation","upstream":{"method":"GET","url":"http://127.0.0.1:1/x","status":200},"attempts":2,"raw_sha256":"ab","decision":{"decision":"allow"},"detail":"ignored"}`,
			want: auditEvent{RequestID: "req.A", Tool: "run_status", AdapterVersion: "reference/0.1.0", Gate: "schema", Reason: "schema_violation",
				Upstream: &auditUpstream{Method: "GET", URL: "http://127.0.0.1:1/x", Status: 200}, Attempts: 2, RawSHA256: "ab", Decision: []byte(`{"decision":"allow"}`)}},
		{line: `{"gate":"parse","gate":"schema"}`, want: auditEvent{Gate: "schema"}},
		{line: `{"Gate":"parse"}`, want: auditEvent{}},
		{line: "{\"reason\":\"a\xffb\"}", want: auditEvent{Reason: "a\ufffdb"}},
		{line: `{"decision":null}`, want: auditEvent{Decision: []byte("null")}},
		{line: `{"attempts":"1"}`, wantErr: true},
		{line: `{"gate":"none"`, wantErr: true},
	}
	for _, tt := range tests {
		var got auditEvent
		err := decodeAuditEvent([]byte(tt.line), &got)
		if (err != nil) != tt.wantErr {
			t.Errorf("decodeAuditEvent(%s) error = %v, want error %v", tt.line, err, tt.wantErr)
			continue
		}
		if tt.wantErr {
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("decodeAuditEvent(%s) mismatch (-want +got):\n%s", tt.line, diff)
		}
	}
}
