package gate

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/protocol"
)

func TestAuditLogLine(t *testing.T) {
	var buf bytes.Buffer
	log := NewAuditLog(&buf)
	e := protocol.AuditEvent{
		Time:           time.Date(2026, 11, 29, 17, 0, 0, 123456789, time.FixedZone("x", 3600)),
		RequestID:      "req.J7q94MkP",
		Tool:           "review_status",
		AdapterVersion: "reference/0.1.0",
		Gate:           protocol.GateSchema,
		Reason:         protocol.ReasonSchemaViolation,
		Detail:         "bad",
	}
	Fetched{URL: "http://127.0.0.1:1/reviews/CR-1", Status: 200, Raw: []byte("test"), Attempts: 1}.Audit(&e)
	if err := log.Write(e); err != nil {
		t.Fatal(err)
	}
	if err := log.Write(protocol.AuditEvent{Time: e.Time, RequestID: "req.2", Tool: "unknown", Gate: protocol.GateAuthz, Reason: protocol.ReasonToolNotAllowlisted}); err != nil {
		t.Fatal(err)
	}
	want := `{"time":"2026-11-29T16:00:00.123Z","request_id":"req.J7q94MkP","tool":"review_status","adapter_version":"reference/0.1.0","gate":"schema","reason":"schema_violation","detail":"bad","upstream":{"method":"GET","url":"http://127.0.0.1:1/reviews/CR-1","status":200},"attempts":1,"raw_sha256":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08","raw_bytes":4}
{"time":"2026-11-29T16:00:00.123Z","request_id":"req.2","tool":"unknown","adapter_version":"","gate":"authz","reason":"tool_not_allowlisted","detail":"","attempts":0,"raw_bytes":0}
`
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("audit lines (-want +got):\n%s", diff)
	}
}

func TestEventRoundTrip(t *testing.T) {
	e := protocol.AuditEvent{Time: time.Date(2026, 11, 29, 16, 0, 0, 123000000, time.UTC), RequestID: "req.12345678", Tool: "run_status",
		AdapterVersion: "v", Gate: protocol.GateTransport, Reason: protocol.ReasonStatus5xx, Detail: "d"}
	Fetched{URL: "http://127.0.0.1:1/x", Status: 503, Raw: []byte("down"), Attempts: 3}.Audit(&e)
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var got protocol.AuditEvent
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(e, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestOpenAuditLogAppendsConcurrently(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	if err := os.WriteFile(path, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	log, err := OpenAuditLog(path)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if err := log.Write(protocol.AuditEvent{Detail: strings.Repeat("x", 5000)}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 21 {
		t.Fatalf("%d lines, want 21", len(lines))
	}
	for i, l := range lines[1:] {
		if _, err := ParseJSON([]byte(l), Limits{}); err != nil {
			t.Errorf("line %d is not one JSON object: %v", i+2, err)
		}
	}
}
