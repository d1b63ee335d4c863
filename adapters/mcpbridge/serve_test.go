package mcpbridge_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolcert/toolcert/adapters/mcpbridge"
	"github.com/toolcert/toolcert/adapters/reference"
)

// TestServe: over streamable HTTP, /healthz answers 200, a call at /mcp
// reaches the adapter, and cancelling the context ends Serve promptly
// although the client's session (and its standing SSE stream) is open.
func TestServe(t *testing.T) {
	up := newUpstreamServer(t, jsonAnswer(200, reviewOK))
	cfg := reference.DefaultConfig()
	cfg.UpstreamURL, cfg.AuditFile = up, os.DevNull
	a, err := reference.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	tools, err := mcpbridge.ReferenceTools()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mcpbridge.New(a, tools)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- mcpbridge.Serve(ctx, srv, ln) }()
	base := "http://" + ln.Addr().String()

	client := &http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /healthz: %d, want 200", resp.StatusCode)
	}

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: client}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "review_status", Arguments: json.RawMessage(`{"change_id":"CR-1042"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || res.Meta[metaRequestID] == nil {
		t.Errorf("call over HTTP: isError %t, _meta %v; want a success with a request id", res.IsError, res.Meta)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve after cancel: %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after its context was cancelled")
	}
}

// newUpstreamServer serves h on loopback and returns its URL.
func newUpstreamServer(tb testing.TB, h http.HandlerFunc) string {
	tb.Helper()
	up := httptest.NewServer(h)
	tb.Cleanup(up.Close)
	return up.URL
}
