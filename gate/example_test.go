package gate_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

func ExampleParseJSON() {
	v, err := gate.ParseJSON([]byte(`{"change_id":"CR-1042","score":7}`), gate.DefaultLimits())
	fmt.Println(v, err)

	_, err = gate.ParseJSON([]byte(`{"decision":"rejected","decision":"approved"}`), gate.DefaultLimits())
	if r, ok := gate.AsRejection(err); ok {
		fmt.Println(r.Gate, r.Reason)
	}
	// Output:
	// map[change_id:CR-1042 score:7] <nil>
	// parse duplicate_name
}

func ExampleParseKeyValues() {
	keys := []gate.KeySpec{
		{Name: "host", Pattern: regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{0,62}$`)},
		{Name: "uptime_seconds", Pattern: regexp.MustCompile(`^[0-9]{1,12}$`)},
	}
	v, err := gate.ParseKeyValues([]byte("host=web-1\nuptime_seconds=86400\n"), keys)
	fmt.Println(v, err)

	_, err = gate.ParseKeyValues([]byte("host=web-1\r\nuptime_seconds=86400\r\n"), keys)
	r, _ := gate.AsRejection(err)
	fmt.Println(r.Reason)
	// Output:
	// map[host:web-1 uptime_seconds:86400] <nil>
	// text_format
}

func ExampleCompile() {
	sch, err := gate.Compile("event", []byte(`{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"type": "object",
		"properties": {"at": {"type": "string", "format": "date-time"}},
		"required": ["at"],
		"additionalProperties": false
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := gate.ParseJSON([]byte(`{"at":"2026-13-45T00:00:00Z"}`), gate.DefaultLimits())
	r, _ := gate.AsRejection(sch.Validate(v))
	fmt.Println(r.Gate, r.Reason)

	_, err = gate.Compile("remote", []byte(`{"$ref":"http://example.com/s.json"}`))
	fmt.Println(errors.Is(err, gate.ErrRemoteRef))
	// Output:
	// schema schema_violation
	// true
}

func ExampleClosed() {
	err := gate.Closed([]byte(`{"type":"object","properties":{"a":{"type":"string"}}}`))
	fmt.Println(err)
	// Output:
	// object schema is not closed at ""
}

func ExampleEqual() {
	fmt.Println(gate.Equal("change_id", "CR-1042", "CR-1042"))
	r, _ := gate.AsRejection(gate.Equal("change_id", "CR-9", "CR-1042"))
	fmt.Println(r.Gate, r.Reason)
	// Output:
	// <nil>
	// semantic binding_mismatch
}

func ExampleFresh() {
	now := time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC)
	fmt.Println(gate.Fresh("2026-11-29T15:58:00Z", now, 5*time.Minute, 30*time.Second))
	r, _ := gate.AsRejection(gate.Fresh("2026-11-29T15:00:00Z", now, 5*time.Minute, 30*time.Second))
	fmt.Println(r.Reason)
	// Output:
	// <nil>
	// stale
}

func ExampleParseTimestamp() {
	t, err := gate.ParseTimestamp("2026-11-29T17:00:00+01:00")
	fmt.Println(t.UTC(), err)
	// Output:
	// 2026-11-29 16:00:00 +0000 UTC <nil>
}

func ExampleSuccess() {
	b, _ := gate.Success("review_status", "req.J7q94MkP", map[string]any{"change_id": "CR-1042", "decision": "approved"})
	fmt.Println(string(b))
	// Output:
	// {"tool":"review_status","request_id":"req.J7q94MkP","outcome":"success","data":{"change_id":"CR-1042","decision":"approved"}}
}

func ExampleFailure() {
	err := gate.Reject(protocol.GateParse, protocol.ReasonSyntax, "upstream text stays here")
	code, retryable := err.Code()
	fmt.Println(string(gate.Failure("review_status", "req.J7q94MkP", code, retryable)))
	// Output:
	// {"tool":"review_status","request_id":"req.J7q94MkP","outcome":"failure","error":{"code":"INVALID_RESPONSE","retryable":false}}
}

func ExamplePendingApproval() {
	fmt.Println(string(gate.PendingApproval("send_email", "req.J7q94MkP", "apr.42")))
	// Output:
	// {"tool":"send_email","request_id":"req.J7q94MkP","outcome":"pending_approval","approval_id":"apr.42"}
}

func ExampleRejection_Code() {
	for _, reason := range []string{protocol.ReasonStatus404, protocol.ReasonStatus5xx, protocol.ReasonStatus4xx, protocol.ReasonByteLimit} {
		fmt.Println((&gate.Rejection{Gate: protocol.GateTransport, Reason: reason}).Code())
	}
	// Output:
	// NOT_FOUND false
	// UPSTREAM_UNAVAILABLE true
	// UPSTREAM_UNAVAILABLE false
	// INVALID_RESPONSE false
}

func ExampleAsRejection() {
	err := fmt.Errorf("review_status: %w", gate.Reject(protocol.GateSemantic, protocol.ReasonStale, "observed 1h ago"))
	r, ok := gate.AsRejection(err)
	fmt.Println(ok, r.Gate, r.Reason, r.Detail())
	// Output:
	// true semantic stale observed 1h ago
}

func ExampleNewRequestID() {
	id := gate.NewRequestID()
	fmt.Println(protocol.ValidRequestID(id), strings.HasPrefix(id, "req."))
	// Output:
	// true true
}

func ExampleReadLimited() {
	raw, err := gate.ReadLimited(strings.NewReader("0123456789"), 4)
	r, _ := gate.AsRejection(err)
	fmt.Printf("%q %s\n", raw, r.Reason)
	// Output:
	// "01234" byte_limit
}

func ExampleCheckContentType() {
	h := http.Header{"Content-Type": {"text/html"}}
	r, _ := gate.AsRejection(gate.CheckContentType(h, protocol.ContentTypeJSON))
	fmt.Println(r.Gate, r.Reason)
	// Output:
	// parse content_type
}

func ExampleFetcher_Get() {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		if calls < 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	}))
	defer srv.Close()

	f := gate.NewFetcher(gate.WithMaxAttempts(3), gate.WithDeadline(2*time.Second))
	defer f.Close()
	got, err := f.Get(context.Background(), srv.URL+"/reviews/CR-1")
	fmt.Println(got.Status, string(got.Raw), got.Attempts, err)
	// Output:
	// 200 {"ok":true} 3 <nil>
}

func ExampleNewAuditLog() {
	log := gate.NewAuditLog(os.Stdout)
	e := protocol.AuditEvent{
		Time:           time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC),
		RequestID:      "req.J7q94MkP",
		Tool:           "review_status",
		AdapterVersion: "reference/0.1.0",
		Gate:           protocol.GateNone,
		Reason:         protocol.ReasonOK,
	}
	gate.Fetched{URL: "http://127.0.0.1:8080/reviews/CR-1", Status: 200, Raw: []byte("{}"), Attempts: 1}.Audit(&e)
	log.Write(e)
	// Output:
	// {"time":"2026-11-29T16:00:00.000Z","request_id":"req.J7q94MkP","tool":"review_status","adapter_version":"reference/0.1.0","gate":"none","reason":"ok","detail":"","upstream":{"method":"GET","url":"http://127.0.0.1:8080/reviews/CR-1","status":200},"attempts":1,"raw_sha256":"44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a","raw_bytes":2}
}

func ExampleOpenAuditLog() {
	path := filepath.Join(os.TempDir(), fmt.Sprintf("audit-example-%d.jsonl", os.Getpid()))
	defer os.Remove(path)
	log, err := gate.OpenAuditLog(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	log.Write(protocol.AuditEvent{RequestID: "req.1", Gate: protocol.GateAuthz, Reason: protocol.ReasonArgumentsInvalid})
	log.Close()
	b, _ := os.ReadFile(path)
	fmt.Println(strings.Count(string(b), "\n"))
	// Output:
	// 1
}

func ExampleDefaultLimits() {
	fmt.Printf("%+v\n", gate.DefaultLimits())
	// Output:
	// {MaxBytes:65536 MaxDepth:32}
}
