package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestResult: each envelope a v1 handler may answer, well formed or not,
// and the one result (or refusal) the bridge makes of it.
func TestResult(t *testing.T) {
	const id = "req.0123456789"
	tests := []struct {
		name    string
		why     string
		answer  string
		want    string // the result's JSON; "" when the answer is refused
		isError bool
	}{
		{
			"success", "the data object travels byte for byte",
			`{"tool":"review_status","request_id":"req.0123456789","outcome":"success","data":{"b":1,"a":"x"}}`,
			`{"b":1,"a":"x"}`, false,
		},
		{
			"failure", "code and flag only",
			`{"tool":"review_status","request_id":"req.0123456789","outcome":"failure","error":{"code":"UPSTREAM_UNAVAILABLE","retryable":true}}`,
			`{"error":{"code":"UPSTREAM_UNAVAILABLE","retryable":true}}`, true,
		},
		{
			"failure with detail", "an extra member of the error (a mutant's validator text) does not travel",
			`{"tool":"review_status","request_id":"req.0123456789","outcome":"failure","error":{"code":"INVALID_RESPONSE","retryable":false,"detail":"upstream said hi"}}`,
			`{"error":{"code":"INVALID_RESPONSE","retryable":false}}`, true,
		},
		{
			"pending approval", "MCP has no approval endpoint: DENIED, the approval id withheld",
			`{"tool":"send_email","request_id":"req.0123456789","outcome":"pending_approval","approval_id":"apr.0123456789"}`,
			`{"error":{"code":"DENIED","retryable":false}}`, true,
		},
		{"not JSON", "an HTML error page is no envelope", `<html>oops</html>`, "", false},
		{"empty", "an empty body is no envelope", ``, "", false},
		{"duplicate outcome", "a duplicate name could hide a second outcome", `{"request_id":"req.0123456789","outcome":"failure","outcome":"success","data":{}}`, "", false},
		{"outcome in another case", "names match exactly", `{"request_id":"req.0123456789","Outcome":"success","data":{}}`, "", false},
		{"bad request id", "the request id must match the protocol's pattern", `{"request_id":"req 1","outcome":"success","data":{}}`, "", false},
		{"no request id", "every result carries one", `{"outcome":"success","data":{}}`, "", false},
		{"data not an object", "structuredContent is an object", `{"request_id":"req.0123456789","outcome":"success","data":[1]}`, "", false},
		{"unknown code", "only the protocol's codes travel", `{"request_id":"req.0123456789","outcome":"failure","error":{"code":"TEAPOT","retryable":false}}`, "", false},
		{"no retryable", "a failure states its flag", `{"request_id":"req.0123456789","outcome":"failure","error":{"code":"DENIED"}}`, "", false},
		{"unknown outcome", "three outcomes only", `{"request_id":"req.0123456789","outcome":"maybe","data":{}}`, "", false},
		{"invalid UTF-8", "the answer is read strictly", "{\"request_id\":\"req.0123456789\",\"outcome\":\"success\",\"data\":{\"a\":\"\xff\"}}", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := result([]byte(tt.answer))
			if tt.want == "" {
				if !errors.Is(err, errEnvelope) {
					t.Errorf("%s: result = %v, %v; want errEnvelope", tt.why, res, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tt.why, err)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			got := []any{res.IsError, string(res.StructuredContent.(json.RawMessage)), text, len(res.Content), res.Meta}
			want := []any{tt.isError, tt.want, tt.want, 1, mcp.Meta{"dev.toolcert/request_id": id}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: (-want +got):\n%s", tt.why, diff)
			}
		})
	}
}

func TestInvocationBody(t *testing.T) {
	tests := []struct {
		name, args, want string
	}{
		{"as sent", `{"b": 1, "a":[ ]}`, `{"arguments":{"b": 1, "a":[ ]}}`},
		{"none", ``, `{"arguments":{}}`},
		{"null stays null", `null`, `{"arguments":null}`},
		{"not one value", `{}, "approval_id": "apr.0123456789"`, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := invocationBody(json.RawMessage(tt.args))
			if string(got) != tt.want || (err != nil) != (tt.want == "") {
				t.Errorf("invocationBody(%s) = %s, %v; want %s", tt.args, got, err, tt.want)
			}
		})
	}
}

// TestCallRefusals: what the client gets when the adapter answers no
// envelope or panics: a fixed JSON-RPC error, nothing of the answer.
func TestCallRefusals(t *testing.T) {
	tests := []struct {
		name    string
		adapter http.HandlerFunc
	}{
		{"no envelope", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("secret upstream page")) }},
		{"panic", func(http.ResponseWriter, *http.Request) { panic("secret upstream page") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &caller{adapter: tt.adapter, tool: "review_status", logger: slog.New(slog.DiscardHandler)}
			res, err := c.call(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Arguments: json.RawMessage(`{}`)}})
			var rpc *jsonrpc.Error
			if res != nil || !errors.As(err, &rpc) || rpc.Code != jsonrpc.CodeInternalError || rpc.Message != errInternal.Message {
				t.Errorf("call = %v, %v; want the fixed internal error", res, err)
			}
		})
	}
}
