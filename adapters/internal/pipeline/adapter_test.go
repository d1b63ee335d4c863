package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// now is the pinned clock of the tests.
var now = time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC)

// reply is what the test upstream answers.
type reply struct {
	status      int
	contentType string
	body        string
	header      map[string]string
}

// json200 is a 200 application/json answer.
func json200(body string) reply {
	return reply{status: 200, contentType: "application/json", body: body}
}

const (
	reviewOK = `{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice","request_id":"up-77","comment":"LGTM","links":{"html":"https://r.example/CR-1042"},"updated_at":"2026-11-29T15:00:00Z"}`
	runOK    = `{"project_id":"web-app","kind":"run","run_id":"run_ABCDEFGHIJKL","state":"running","observed_at":"2026-11-29T15:59:00Z","trigger":{"actor":"bob","source":"push"},"message":"building","diagnostics_url":"https://ci.example/1"}`
	reviewV2 = `{"change_id":"CR-1042","decision":"approved","reviewed_by":{"login":"alice","name":"Alice Liddell"},"labels":["backend"],"updated_at":"2026-11-29T15:00:00Z"}`
	deployOK = `{"environment":"prod","revision":"abc1234","state":"healthy","deployed_at":"2026-11-29T15:00:00Z","deployer":"carol"}`
)

func TestInvoke(t *testing.T) {
	tests := []struct {
		name       string
		tool       string
		body       string // agent request body
		replies    []reply
		wantStatus int
		wantBody   string // {ID} stands for the request id
		wantGate   protocol.Gate
		wantReason string
		wantCalls  int
	}{
		{name: "review accepted", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{json200(reviewOK)},
			wantStatus: 200, wantBody: `{"tool":"review_status","request_id":"{ID}","outcome":"success","data":{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice"}}`,
			wantGate: protocol.GateNone, wantReason: "ok", wantCalls: 1},
		{name: "run accepted without message", tool: "run_status", body: `{"arguments":{"project_id":"web-app","run_id":"run_ABCDEFGHIJKL"}}`, replies: []reply{json200(runOK)},
			wantStatus: 200, wantBody: `{"tool":"run_status","request_id":"{ID}","outcome":"success","data":{"observed_at":"2026-11-29T15:59:00Z","project_id":"web-app","run_id":"run_ABCDEFGHIJKL","state":"running"}}`,
			wantGate: protocol.GateNone, wantReason: "ok", wantCalls: 1},
		{name: "deploy accepted", tool: "deploy_status", body: `{"arguments":{"environment":"prod"}}`, replies: []reply{json200(deployOK)},
			wantStatus: 200, wantBody: `{"tool":"deploy_status","request_id":"{ID}","outcome":"success","data":{"environment":"prod","revision":"abc1234","state":"healthy"}}`,
			wantGate: protocol.GateNone, wantReason: "ok", wantCalls: 1},
		{name: "uptime accepted", tool: "host_uptime", body: `{"arguments":{"host":"web-1"}}`, replies: []reply{{200, "text/plain; charset=utf-8", "host=web-1\nuptime_seconds=86400\n", nil}},
			wantStatus: 200, wantBody: `{"tool":"host_uptime","request_id":"{ID}","outcome":"success","data":{"host":"web-1","uptime_seconds":86400}}`,
			wantGate: protocol.GateNone, wantReason: "ok", wantCalls: 1},
		{name: "review v2 projects the login", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{versioned(json200(reviewV2), "v2")},
			wantStatus: 200, wantBody: `{"tool":"review_status","request_id":"{ID}","outcome":"success","data":{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice"}}`,
			wantGate: protocol.GateNone, wantReason: "ok", wantCalls: 1},
		{name: "review v1 declared", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{versioned(json200(reviewOK), "v1")},
			wantStatus: 200, wantBody: `{"tool":"review_status","request_id":"{ID}","outcome":"success","data":{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice"}}`,
			wantGate: protocol.GateNone, wantReason: "ok", wantCalls: 1},
		{name: "review v2 body without header is v1", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{json200(reviewV2)},
			wantStatus: 200, wantBody: failure("review_status", "INVALID_RESPONSE", false), wantGate: protocol.GateSchema, wantReason: "schema_violation", wantCalls: 1},
		{name: "review v1 body declared v2", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{versioned(json200(reviewOK), "v2")},
			wantStatus: 200, wantBody: failure("review_status", "INVALID_RESPONSE", false), wantGate: protocol.GateSchema, wantReason: "schema_violation", wantCalls: 1},
		{name: "review v2 reviewer object closed", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`,
			replies:    []reply{versioned(json200(`{"change_id":"CR-1042","decision":"approved","reviewed_by":{"login":"alice","admin":true}}`), "v2")},
			wantStatus: 200, wantBody: failure("review_status", "INVALID_RESPONSE", false), wantGate: protocol.GateSchema, wantReason: "schema_violation", wantCalls: 1},
		{name: "review v2 binding mismatch", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{versioned(json200(strings.Replace(reviewV2, "CR-1042", "CR-9", 1)), "v2")},
			wantStatus: 200, wantBody: failure("review_status", "INVALID_RESPONSE", false), wantGate: protocol.GateSemantic, wantReason: "binding_mismatch", wantCalls: 1},
		{name: "review header v3", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{versioned(json200(reviewV2), "v3")},
			wantStatus: 200, wantBody: failure("review_status", "INVALID_RESPONSE", false), wantGate: protocol.GateSchema, wantReason: "unsupported_version", wantCalls: 1},
		{name: "run header v2 unsupported", tool: "run_status", body: `{"arguments":{"project_id":"web-app","run_id":"run_ABCDEFGHIJKL"}}`, replies: []reply{versioned(json200(runOK), "v2")},
			wantStatus: 200, wantBody: failure("run_status", "INVALID_RESPONSE", false), wantGate: protocol.GateSchema, wantReason: "unsupported_version", wantCalls: 1},
		{name: "version checked before content type", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{versioned(reply{200, "text/html", reviewOK, nil}, "v9")},
			wantStatus: 200, wantBody: failure("review_status", "INVALID_RESPONSE", false), wantGate: protocol.GateSchema, wantReason: "unsupported_version", wantCalls: 1},
		{name: "status checked before version", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{versioned(reply{404, "application/json", `{}`, nil}, "v9")},
			wantStatus: 200, wantBody: failure("review_status", "NOT_FOUND", false), wantGate: protocol.GateTransport, wantReason: "status_404", wantCalls: 1},
		{name: "uptime header v2 unsupported", tool: "host_uptime", body: `{"arguments":{"host":"web-1"}}`, replies: []reply{versioned(reply{200, "text/plain", "host=web-1\nuptime_seconds=86400\nboot_id=abc\n", nil}, "v2")},
			wantStatus: 200, wantBody: failure("host_uptime", "INVALID_RESPONSE", false), wantGate: protocol.GateSchema, wantReason: "unsupported_version", wantCalls: 1},
		{name: "404", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{{404, "application/json", `{"error":"no"}`, nil}},
			wantStatus: 200, wantBody: failure("review_status", "NOT_FOUND", false), wantGate: protocol.GateTransport, wantReason: "status_404", wantCalls: 1},
		{name: "503 retried three times", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{{503, "text/plain", "down", nil}},
			wantStatus: 200, wantBody: failure("review_status", "UPSTREAM_UNAVAILABLE", true), wantGate: protocol.GateTransport, wantReason: "status_5xx", wantCalls: 3},
		{name: "503 then 200", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{{503, "text/plain", "down", nil}, json200(reviewOK)},
			wantStatus: 200, wantBody: `{"tool":"review_status","request_id":"{ID}","outcome":"success","data":{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice"}}`,
			wantGate: protocol.GateNone, wantReason: "ok", wantCalls: 2},
		{name: "403", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{{403, "application/json", `{}`, nil}},
			wantStatus: 200, wantBody: failure("review_status", "UPSTREAM_UNAVAILABLE", false), wantGate: protocol.GateTransport, wantReason: "status_4xx", wantCalls: 1},
		{name: "redirect", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{{302, "", "", map[string]string{"Location": "/elsewhere"}}},
			wantStatus: 200, wantBody: failure("review_status", "INVALID_RESPONSE", false), wantGate: protocol.GateTransport, wantReason: "unexpected_status", wantCalls: 1},
		{name: "byte limit", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{json200(reviewOK[:len(reviewOK)-1] + `,"x":"` + strings.Repeat("a", 1024) + `"}`)},
			wantStatus: 200, wantBody: failure("review_status", "INVALID_RESPONSE", false), wantGate: protocol.GateTransport, wantReason: "byte_limit", wantCalls: 1},
		{name: "content type", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{{200, "text/html", reviewOK, nil}},
			wantStatus: 200, wantBody: failure("review_status", "INVALID_RESPONSE", false), wantGate: protocol.GateParse, wantReason: "content_type", wantCalls: 1},
		{name: "duplicate name", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{json200(`{"change_id":"CR-1042","decision":"rejected","decision":"approved","reviewed_by":"alice"}`)},
			wantStatus: 200, wantBody: failure("review_status", "INVALID_RESPONSE", false), wantGate: protocol.GateParse, wantReason: "duplicate_name", wantCalls: 1},
		{name: "depth limit", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{json200(strings.Repeat("[", 33) + strings.Repeat("]", 33))},
			wantStatus: 200, wantBody: failure("review_status", "INVALID_RESPONSE", false), wantGate: protocol.GateParse, wantReason: "depth_limit", wantCalls: 1},
		{name: "text format", tool: "host_uptime", body: `{"arguments":{"host":"web-1"}}`, replies: []reply{{200, "text/plain", "host=web-1\r\nuptime_seconds=86400\r\n", nil}},
			wantStatus: 200, wantBody: failure("host_uptime", "INVALID_RESPONSE", false), wantGate: protocol.GateParse, wantReason: "text_format", wantCalls: 1},
		{name: "additional property", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{json200(`{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice","internal_note":"x"}`)},
			wantStatus: 200, wantBody: failure("review_status", "INVALID_RESPONSE", false), wantGate: protocol.GateSchema, wantReason: "schema_violation", wantCalls: 1},
		{name: "run unevaluated property", tool: "run_status", body: `{"arguments":{"project_id":"web-app","run_id":"run_ABCDEFGHIJKL"}}`, replies: []reply{json200(runOK[:len(runOK)-1] + `,"secret":"x"}`)},
			wantStatus: 200, wantBody: failure("run_status", "INVALID_RESPONSE", false), wantGate: protocol.GateSchema, wantReason: "schema_violation", wantCalls: 1},
		{name: "bad date format", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{json200(`{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice","updated_at":"2026-13-45T00:00:00Z"}`)},
			wantStatus: 200, wantBody: failure("review_status", "INVALID_RESPONSE", false), wantGate: protocol.GateSchema, wantReason: "schema_violation", wantCalls: 1},
		{name: "binding mismatch", tool: "review_status", body: `{"arguments":{"change_id":"CR-1042"}}`, replies: []reply{json200(`{"change_id":"CR-9","decision":"approved","reviewed_by":"alice"}`)},
			wantStatus: 200, wantBody: failure("review_status", "INVALID_RESPONSE", false), wantGate: protocol.GateSemantic, wantReason: "binding_mismatch", wantCalls: 1},
		{name: "uptime host mismatch", tool: "host_uptime", body: `{"arguments":{"host":"web-1"}}`, replies: []reply{{200, "text/plain", "host=web-2\nuptime_seconds=1\n", nil}},
			wantStatus: 200, wantBody: failure("host_uptime", "INVALID_RESPONSE", false), wantGate: protocol.GateSemantic, wantReason: "binding_mismatch", wantCalls: 1},
		{name: "stale", tool: "run_status", body: `{"arguments":{"project_id":"web-app","run_id":"run_ABCDEFGHIJKL"}}`, replies: []reply{json200(strings.Replace(runOK, "15:59:00Z", "15:54:59Z", 1))},
			wantStatus: 200, wantBody: failure("run_status", "INVALID_RESPONSE", false), wantGate: protocol.GateSemantic, wantReason: "stale", wantCalls: 1},
		{name: "future", tool: "run_status", body: `{"arguments":{"project_id":"web-app","run_id":"run_ABCDEFGHIJKL"}}`, replies: []reply{json200(strings.Replace(runOK, "15:59:00Z", "16:00:31Z", 1))},
			wantStatus: 200, wantBody: failure("run_status", "INVALID_RESPONSE", false), wantGate: protocol.GateSemantic, wantReason: "future", wantCalls: 1},
		{name: "invalid arguments", tool: "review_status", body: `{"arguments":{"change_id":"../admin"}}`,
			wantStatus: 200, wantBody: failure("review_status", "DENIED", false), wantGate: protocol.GateAuthz, wantReason: "arguments_invalid"},
		{name: "extra argument", tool: "review_status", body: `{"arguments":{"change_id":"CR-1","x":"y"}}`,
			wantStatus: 200, wantBody: failure("review_status", "DENIED", false), wantGate: protocol.GateAuthz, wantReason: "arguments_invalid"},
		{name: "body not arguments", tool: "review_status", body: `{"change_id":"CR-1"}`,
			wantStatus: 400, wantBody: failure("review_status", "DENIED", false), wantGate: protocol.GateAuthz, wantReason: "arguments_invalid"},
		{name: "body not json", tool: "review_status", body: `arguments`,
			wantStatus: 400, wantBody: failure("review_status", "DENIED", false), wantGate: protocol.GateAuthz, wantReason: "arguments_invalid"},
		{name: "unknown tool", tool: "delete_repo", body: `{"arguments":{}}`,
			wantStatus: 404, wantBody: failure("unknown", "DENIED", false), wantGate: protocol.GateAuthz, wantReason: "tool_not_allowlisted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			up := newUpstream(t, tt.replies...)
			var audit bytes.Buffer
			a := newTestAdapter(t, up.URL, WithAuditWriter(&audit))
			status, body := call(t, a, tt.tool, tt.body)
			ev := lastEvent(t, &audit)
			if status != tt.wantStatus {
				t.Errorf("status = %d, want %d", status, tt.wantStatus)
			}
			want := strings.ReplaceAll(tt.wantBody, "{ID}", ev.RequestID)
			if diff := cmp.Diff(want, body); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if !protocol.ValidRequestID(ev.RequestID) {
				t.Errorf("request_id %q does not match the pattern", ev.RequestID)
			}
			got := auditSummary{Gate: ev.Gate, Reason: ev.Reason, Attempts: ev.Attempts, Calls: int(up.calls.Load())}
			if diff := cmp.Diff(auditSummary{tt.wantGate, tt.wantReason, tt.wantCalls, tt.wantCalls}, got); diff != "" {
				t.Errorf("audit (-want +got):\n%s\ndetail: %s", diff, ev.Detail)
			}
			checkRawDigest(t, ev, up, tt.wantCalls)
		})
	}
}

// auditSummary is what TestInvoke checks of the audit event.
type auditSummary struct {
	Gate     protocol.Gate
	Reason   string
	Attempts int
	Calls    int
}

// checkRawDigest checks the audit digest against the last body served.
func checkRawDigest(tb testing.TB, ev auditEvent, up *upstream, calls int) {
	tb.Helper()
	if calls == 0 {
		if ev.Upstream != nil || ev.RawSHA256 != "" {
			tb.Errorf("audit has upstream %+v, sha %q; want none", ev.Upstream, ev.RawSHA256)
		}
		return
	}
	served := up.last()
	if int64(len(served)) > 1024 {
		served = served[:1025] // the byte limit of the test adapter, plus one
	}
	sum := sha256.Sum256(served)
	if ev.RawSHA256 != hex.EncodeToString(sum[:]) || ev.RawBytes != len(served) {
		tb.Errorf("audit raw_sha256 %s (%d bytes), want the sha256 of %q", ev.RawSHA256, ev.RawBytes, served)
	}
	if ev.Upstream == nil || ev.Upstream.Method != "GET" || !strings.HasPrefix(ev.Upstream.URL, up.URL+"/") {
		tb.Errorf("audit upstream = %+v", ev.Upstream)
	}
}

func TestFailureNeverCarriesUpstreamBytes(t *testing.T) {
	const canary = "CANARY7f3a9"
	replies := []reply{
		{404, "application/json", `{"error":"` + canary + `"}`, map[string]string{"X-Debug": canary}},
		{500, "text/plain", canary, nil},
		{200, "text/html", "<p>" + canary + "</p>", nil},
		json200(`{"change_id":"CR-1042","decision":"` + canary + `","reviewed_by":"alice"}`),
		json200(`{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice","` + canary + `":1}`),
		json200(`{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice","request_id":"` + canary + `"}`),
		json200(`{"change_id":"` + canary + `","decision":"approved","reviewed_by":"alice"}`),
		json200(`{"change_id":"CR-1042",` + canary + `}`),
		json200(`{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice","comment":"` + canary + `"}`),
	}
	for i, r := range replies {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			up := newUpstream(t, r)
			a := newTestAdapter(t, up.URL, WithAuditWriter(io.Discard))
			req := httptest.NewRequest("POST", "/v1/tools/review_status/invoke", strings.NewReader(`{"arguments":{"change_id":"CR-1042"}}`))
			rec := httptest.NewRecorder()
			a.ServeHTTP(rec, req)
			var out bytes.Buffer
			rec.Result().Write(&out) // status line, headers and body
			if strings.Contains(out.String(), canary) {
				t.Errorf("agent-visible output carries the canary:\n%s", out.String())
			}
		})
	}
}

func TestHealthz(t *testing.T) {
	a := newTestAdapter(t, "http://127.0.0.1:1", WithAuditWriter(io.Discard))
	rec := httptest.NewRecorder()
	a.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	if rec.Code != 200 {
		t.Errorf("GET /healthz = %d, want 200", rec.Code)
	}
}

// versioned returns r with the VersionHeader set to v.
func versioned(r reply, v string) reply {
	h := map[string]string{protocol.VersionHeader: v}
	for k, val := range r.header {
		h[k] = val
	}
	r.header = h
	return r
}

// failure returns the failure envelope with {ID} for the request id.
func failure(tool, code string, retryable bool) string {
	return string(gate.Failure(tool, "{ID}", protocol.Code(code), retryable))
}

// upstream is a test upstream answering its replies in turn (the last one
// repeats) and remembering the last body it served.
type upstream struct {
	*httptest.Server
	calls  atomic.Int64
	mu     sync.Mutex
	served []byte
}

// newUpstream starts an upstream; it is closed at cleanup.
func newUpstream(tb testing.TB, replies ...reply) *upstream {
	tb.Helper()
	u := &upstream{}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(u.calls.Add(1))
		if len(replies) == 0 {
			w.WriteHeader(http.StatusTeapot)
			return
		}
		rep := replies[min(n, len(replies))-1]
		for k, v := range rep.header {
			w.Header().Set(k, v)
		}
		if rep.contentType != "" {
			w.Header().Set("Content-Type", rep.contentType)
		}
		w.WriteHeader(rep.status)
		io.WriteString(w, rep.body)
		u.mu.Lock()
		u.served = []byte(rep.body)
		u.mu.Unlock()
	}))
	tb.Cleanup(u.Close)
	return u
}

// last returns the last body served.
func (u *upstream) last() []byte {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.served
}

// newTestAdapter returns an adapter on upstreamURL with a pinned clock, a
// 1024-byte limit and fast retries; it is closed at cleanup.
func newTestAdapter(tb testing.TB, upstreamURL string, opts ...Option) *Adapter {
	tb.Helper()
	cfg := DefaultConfig()
	cfg.UpstreamURL = upstreamURL
	cfg.Limits.MaxBytes = 1024
	cfg.Now = func() time.Time { return now }
	a, err := New(cfg, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { a.Close() })
	return a
}

// call invokes tool with body and returns the status and body.
func call(tb testing.TB, h http.Handler, tool, body string) (int, string) {
	tb.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/tools/"+tool+"/invoke", strings.NewReader(body)))
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		tb.Errorf("Content-Type = %q, want application/json", ct)
	}
	return rec.Code, rec.Body.String()
}

// auditEvent is an audit line as an operator's tool decodes it.
type auditEvent struct {
	Time           string                  `json:"time"`
	RequestID      string                  `json:"request_id"`
	Tool           string                  `json:"tool"`
	AdapterVersion string                  `json:"adapter_version"`
	Gate           protocol.Gate           `json:"gate"`
	Reason         string                  `json:"reason"`
	Detail         string                  `json:"detail"`
	Upstream       *protocol.AuditUpstream `json:"upstream"`
	Attempts       int                     `json:"attempts"`
	RawSHA256      string                  `json:"raw_sha256"`
	RawBytes       int                     `json:"raw_bytes"`
	Decision       *protocol.Decision      `json:"decision"`
}

// lastEvent decodes the only audit line in buf and checks its time (the
// pinned clock) and version.
func lastEvent(tb testing.TB, buf *bytes.Buffer) auditEvent {
	tb.Helper()
	ev := onlyEvent(tb, buf)
	if ev.Time != "2026-11-29T16:00:00.000Z" || ev.AdapterVersion != Version {
		tb.Errorf("audit time %q, version %q", ev.Time, ev.AdapterVersion)
	}
	return ev
}

// onlyEvent decodes the only audit line in buf, strictly.
func onlyEvent(tb testing.TB, buf *bytes.Buffer) auditEvent {
	tb.Helper()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 1 {
		tb.Fatalf("%d audit lines, want 1:\n%s", len(lines), buf.String())
	}
	var ev auditEvent
	dec := json.NewDecoder(strings.NewReader(lines[0]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ev); err != nil {
		tb.Fatalf("audit line %s: %v", lines[0], err)
	}
	return ev
}
