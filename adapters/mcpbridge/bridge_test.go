package mcpbridge_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolcert/toolcert/adapters/mcpbridge"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/internal/testpolicy"
	"github.com/toolcert/toolcert/protocol"
)

// The _meta keys and the canary are written here as docs/protocol.md
// states them, not taken from the package under test.
const (
	metaToken     = "dev.toolcert/token"
	metaRequestID = "dev.toolcert/request_id"
	canary        = "CANARY-mcpbridge-7f3a"
	// metaServerInfo is the go-sdk's own key: under MCP 2026-07-28 it names
	// the server in every result's _meta (SEP-2575).
	metaServerInfo = "io.modelcontextprotocol/serverInfo"
)

// reviewOK is a valid review_status answer of the upstream, wider than the
// agent's data.
const reviewOK = `{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice","comment":"` + canary + `"}`

// world is the reference adapter served over MCP to one in-memory client,
// with its upstream and audit log.
type world struct {
	session  *mcp.ClientSession
	audit    string
	requests *atomic.Int64
}

// newWorld serves the reference adapter, configured with the built-in
// policy and an upstream answering with upstream, over MCP to a go-sdk
// client connected in memory.
func newWorld(tb testing.TB, upstream http.HandlerFunc) *world {
	tb.Helper()
	w := &world{requests: new(atomic.Int64), audit: filepath.Join(tb.TempDir(), "audit.jsonl")}
	up := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w.requests.Add(1)
		upstream(rw, r)
	}))
	tb.Cleanup(up.Close)
	policy := filepath.Join(tb.TempDir(), "policy.json")
	if err := os.WriteFile(policy, []byte(testpolicy.Builtin()), 0o600); err != nil {
		tb.Fatal(err)
	}
	cfg := reference.DefaultConfig()
	cfg.UpstreamURL, cfg.AuditFile, cfg.PolicyFile = up.URL, w.audit, policy
	a, err := reference.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { a.Close() })
	tools, err := mcpbridge.ReferenceTools()
	if err != nil {
		tb.Fatal(err)
	}
	srv, err := mcpbridge.New(a, tools)
	if err != nil {
		tb.Fatal(err)
	}
	w.session = connect(tb, srv)
	return w
}

// connect connects a go-sdk client to srv in memory.
func connect(tb testing.TB, srv *mcp.Server) *mcp.ClientSession {
	tb.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cs.Close() })
	return cs
}

// call calls tool with the raw JSON args and, when tok is not "", the
// session token in _meta.
func (w *world) call(tb testing.TB, tool, args, tok string) *mcp.CallToolResult {
	tb.Helper()
	p := &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)}
	if tok != "" {
		p.Meta = mcp.Meta{metaToken: tok}
	}
	res, err := w.session.CallTool(context.Background(), p)
	if err != nil {
		tb.Fatalf("call %s: %v", tool, err)
	}
	return res
}

// auditOf returns the gate and reason of the audit event of requestID.
func (w *world) auditOf(tb testing.TB, requestID string) (gate protocol.Gate, reason string) {
	tb.Helper()
	f, err := os.Open(w.audit)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var ev protocol.AuditEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			tb.Fatalf("audit line %s: %v", sc.Bytes(), err)
		}
		if ev.RequestID == requestID {
			return ev.Gate, ev.Reason
		}
	}
	tb.Fatalf("no audit event with request_id %q", requestID)
	return "", ""
}

// seen is what the agent sees of a result, compared whole.
type seen struct {
	IsError    bool
	Structured any
	Texts      []string
	MetaKeys   []string
}

// seenOf returns what the agent sees of res, the request id aside.
func seenOf(tb testing.TB, res *mcp.CallToolResult) seen {
	tb.Helper()
	s := seen{IsError: res.IsError, Structured: res.StructuredContent}
	for _, c := range res.Content {
		tc, ok := c.(*mcp.TextContent)
		if !ok {
			tb.Fatalf("content block %T, want text only", c)
		}
		s.Texts = append(s.Texts, tc.Text)
	}
	s.MetaKeys = slices.Sorted(maps.Keys(res.Meta))
	return s
}

// object returns the JSON text s decoded.
func object(tb testing.TB, s string) any {
	tb.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		tb.Fatal(err)
	}
	return v
}

func jsonAnswer(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

func TestCall(t *testing.T) {
	const (
		data    = `{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice"}`
		invalid = `{"error":{"code":"INVALID_RESPONSE","retryable":false}}`
		denied  = `{"error":{"code":"DENIED","retryable":false}}`
	)
	tests := []struct {
		name       string
		why        string
		upstream   http.HandlerFunc
		tool, args string
		token      string
		want       string // the JSON of structuredContent and of the one text block
		isError    bool
		gate       protocol.Gate
		reason     string
		requests   int64 // the upstream saw
	}{
		{
			name: "success", why: "the agent gets the projected data, nothing more",
			upstream: jsonAnswer(200, reviewOK), tool: "review_status", args: `{"change_id":"CR-1042"}`, token: "toolcert-agent",
			want: data, gate: protocol.GateNone, reason: protocol.ReasonOK, requests: 1,
		},
		{
			name: "schema violation", why: "the upstream's extra member fails the closed vendor schema; the failure carries no byte of it",
			upstream: jsonAnswer(200, `{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice","x":"`+canary+`"}`),
			tool:     "review_status", args: `{"change_id":"CR-1042"}`, token: "toolcert-agent",
			want: invalid, isError: true, gate: protocol.GateSchema, reason: protocol.ReasonSchemaViolation, requests: 1,
		},
		{
			name: "not found", why: "a 404 is NOT_FOUND, not retryable",
			upstream: jsonAnswer(404, `{"message":"`+canary+`"}`), tool: "review_status", args: `{"change_id":"CR-1042"}`, token: "toolcert-agent",
			want: `{"error":{"code":"NOT_FOUND","retryable":false}}`, isError: true, gate: protocol.GateTransport, reason: protocol.ReasonStatus404, requests: 1,
		},
		{
			name: "unavailable", why: "a 503 after the last attempt is UPSTREAM_UNAVAILABLE, retryable: the flag travels",
			upstream: jsonAnswer(503, canary), tool: "review_status", args: `{"change_id":"CR-1042"}`, token: "toolcert-agent",
			want: `{"error":{"code":"UPSTREAM_UNAVAILABLE","retryable":true}}`, isError: true, gate: protocol.GateTransport, reason: protocol.ReasonStatus5xx, requests: 3,
		},
		{
			name: "invalid argument", why: "the adapter, not the MCP server, refuses arguments that break the inputSchema",
			upstream: jsonAnswer(200, reviewOK), tool: "review_status", args: `{"change_id":"nope"}`, token: "toolcert-agent",
			want: denied, isError: true, gate: protocol.GateAuthz, reason: protocol.ReasonArgumentsInvalid,
		},
		{
			name: "extra argument", why: "a model-supplied member the closed schema lacks reaches the adapter and is refused",
			upstream: jsonAnswer(200, reviewOK), tool: "review_status", args: `{"change_id":"CR-1042","approved":true}`, token: "toolcert-agent",
			want: denied, isError: true, gate: protocol.GateAuthz, reason: protocol.ReasonArgumentsInvalid,
		},
		{
			name: "duplicate argument", why: "the arguments travel byte for byte: the adapter's strict parse sees the duplicate a decoder would merge",
			upstream: jsonAnswer(200, reviewOK), tool: "review_status", args: `{"change_id":"CR-1","change_id":"CR-1042"}`, token: "toolcert-agent",
			want: denied, isError: true, gate: protocol.GateAuthz, reason: protocol.ReasonArgumentsInvalid,
		},
		{
			name: "arguments not an object", why: "an array is passed on as sent and refused by the adapter",
			upstream: jsonAnswer(200, reviewOK), tool: "review_status", args: `["CR-1042"]`, token: "toolcert-agent",
			want: denied, isError: true, gate: protocol.GateAuthz, reason: protocol.ReasonArgumentsInvalid,
		},
		{
			name: "arguments over 64 KiB", why: "the go-sdk's own limits (4 MiB over HTTP, 16 MiB a stdio line) are wider: the adapter's limit refuses them",
			upstream: jsonAnswer(200, reviewOK), tool: "review_status", args: `{"change_id":"CR-` + strings.Repeat("1", 70_000) + `"}`, token: "toolcert-agent",
			want: denied, isError: true, gate: protocol.GateAuthz, reason: protocol.ReasonArgumentsInvalid,
		},
		{
			name: "session without the grant", why: "the token in _meta reaches the policy: reader-token lacks read",
			upstream: jsonAnswer(200, reviewOK), tool: "review_status", args: `{"change_id":"CR-1042"}`, token: "reader-token",
			want: denied, isError: true, gate: protocol.GateAuthz, reason: protocol.ReasonGrantMissing,
		},
		{
			name: "no token", why: "without a token in _meta the call has no session",
			upstream: jsonAnswer(200, reviewOK), tool: "review_status", args: `{"change_id":"CR-1042"}`,
			want: denied, isError: true, gate: protocol.GateAuthz, reason: protocol.ReasonGrantMissing,
		},
		{
			name: "ask", why: "a call the policy marks ask fails as DENIED over MCP, which has no approval endpoint",
			upstream: jsonAnswer(202, ""), tool: "send_email", args: `{"to":"bob@example.com","subject":"hi","body":"hello"}`, token: "toolcert-agent",
			want: denied, isError: true, gate: protocol.GateNone, reason: protocol.ReasonOK,
		},
		{
			name: "tool not allowlisted", why: "purge_cache is served but the policy does not allowlist it: the adapter refuses it",
			upstream: jsonAnswer(200, `{}`), tool: "purge_cache", args: `{"service":"web"}`, token: "toolcert-agent",
			want: denied, isError: true, gate: protocol.GateAuthz, reason: protocol.ReasonToolNotAllowlisted,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, tt.upstream)
			res := w.call(t, tt.tool, tt.args, tt.token)
			want := seen{IsError: tt.isError, Structured: object(t, tt.want), Texts: []string{tt.want}, MetaKeys: []string{metaRequestID, metaServerInfo}}
			if diff := cmp.Diff(want, seenOf(t, res)); diff != "" {
				t.Errorf("%s: result (-want +got):\n%s", tt.why, diff)
			}
			id, _ := res.Meta[metaRequestID].(string)
			if g, r := w.auditOf(t, id); g != tt.gate || r != tt.reason {
				t.Errorf("%s: audit of %s: %s/%s, want %s/%s", tt.why, id, g, r, tt.gate, tt.reason)
			}
			if n := w.requests.Load(); n != tt.requests {
				t.Errorf("%s: the upstream saw %d requests, want %d", tt.why, n, tt.requests)
			}
			raw, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(raw), canary) {
				t.Errorf("%s: the result carries the upstream's canary: %s", tt.why, raw)
			}
		})
	}
}

// TestWhatReachesTheAdapter: the request the adapter's handler gets from a
// call, token or not; and nothing but the bridge's fields of its answer
// (status, headers, other members) reaches the client.
func TestWhatReachesTheAdapter(t *testing.T) {
	type request struct{ Method, Path, Auth, Body string }
	tests := []struct {
		name string
		meta mcp.Meta
		args string
		want request
	}{
		{"token", mcp.Meta{metaToken: "toolcert-agent"}, `{"change_id":"CR-1042"}`,
			request{"POST", "/v1/tools/review_status/invoke", "Bearer toolcert-agent", `{"arguments":{"change_id":"CR-1042"}}`}},
		// The go-sdk client compacts the arguments it sends; the server
		// passes on what arrives: order, escapes and number spellings.
		{"no token", nil, `{"z":"\u00e9","a":[1,2.50,1e2]}`,
			request{"POST", "/v1/tools/review_status/invoke", "", `{"arguments":{"z":"\u00e9","a":[1,2.50,1e2]}}`}},
		{"token not a string", mcp.Meta{metaToken: 42}, `{}`,
			request{"POST", "/v1/tools/review_status/invoke", "", `{"arguments":{}}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got request
			adapter := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				got = request{r.Method, r.URL.Path, strings.Join(r.Header.Values("Authorization"), "|"), string(b)}
				w.Header().Set("X-Upstream", canary)
				w.WriteHeader(http.StatusTeapot)
				io.WriteString(w, `{"tool":"review_status","request_id":"req.0123456789","outcome":"success","data":{"ok":true},"note":"`+canary+`"}`)
			})
			srv, err := mcpbridge.New(adapter, []mcpbridge.Tool{{Name: "review_status", InputSchema: json.RawMessage(`{"type":"object"}`)}})
			if err != nil {
				t.Fatal(err)
			}
			res, err := connect(t, srv).CallTool(context.Background(), &mcp.CallToolParams{Meta: tt.meta, Name: "review_status", Arguments: json.RawMessage(tt.args)})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("the adapter's request (-want +got):\n%s", diff)
			}
			raw, _ := json.Marshal(res)
			if strings.Contains(string(raw), canary) || strings.Contains(string(raw), "418") || res.IsError {
				t.Errorf("result %s: want the data alone", raw)
			}
		})
	}
}

func TestNewRefusesTools(t *testing.T) {
	tests := []struct {
		name  string
		tools []mcpbridge.Tool
	}{
		{"no name", []mcpbridge.Tool{{InputSchema: json.RawMessage(`{"type":"object"}`)}}},
		{"twice", []mcpbridge.Tool{{Name: "a", InputSchema: json.RawMessage(`{"type":"object"}`)}, {Name: "a", InputSchema: json.RawMessage(`{"type":"object"}`)}}},
		{"no schema: MCP requires one", []mcpbridge.Tool{{Name: "a"}}},
		{"schema not of type object, as MCP requires", []mcpbridge.Tool{{Name: "a", InputSchema: json.RawMessage(`{"type":"string"}`)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := mcpbridge.New(http.NotFoundHandler(), tt.tools); !errors.Is(err, mcpbridge.ErrTool) {
				t.Errorf("New: err = %v, want ErrTool", err)
			}
		})
	}
}

// TestToolsList: one MCP tool per reference tool, the same name, the
// argument schema as inputSchema, and no outputSchema.
func TestToolsList(t *testing.T) {
	w := newWorld(t, jsonAnswer(200, reviewOK))
	res, err := w.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		schema, err := reference.Schema(tool.Name, "args")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(object(t, string(schema)), tool.InputSchema); diff != "" {
			t.Errorf("%s: inputSchema (-want +got):\n%s", tool.Name, diff)
		}
		if tool.OutputSchema != nil || tool.Description != "" {
			t.Errorf("%s: outputSchema %v, description %q; want none", tool.Name, tool.OutputSchema, tool.Description)
		}
	}
	if diff := cmp.Diff(reference.Tools(), names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
}

// TestUnknownTool: a name the server lacks never reaches the adapter; the
// go-sdk answers a JSON-RPC error of its own.
func TestUnknownTool(t *testing.T) {
	w := newWorld(t, jsonAnswer(200, reviewOK))
	_, err := w.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "Review_Status", Arguments: map[string]any{}})
	if err == nil {
		t.Fatal("call of an unknown tool: no error")
	}
	if b, _ := os.ReadFile(w.audit); len(b) != 0 {
		t.Errorf("the adapter saw the call: %s", b)
	}
}
