package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"help", []string{"-h"}, exitOK},
		{"no mutant", nil, exitUsage},
		{"unknown mutant", []string{"--mutant", "no-such-mutant"}, exitUsage},
		{"mcp mode not stdio or http", []string{"--mutant", "no-retry", "--mcp", "sse"}, exitUsage},
		{"argument after the flags", []string{"--mutant", "no-retry", "extra"}, exitUsage},
	}
	t.Setenv("TOOLCERT_UPSTREAM_URL", "http://127.0.0.1:1")
	t.Setenv("TOOLCERT_MUTANT", "")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := run(context.Background(), tt.args, io.Discard, io.Discard); got != tt.want {
				t.Errorf("run %q = %d, want %d", tt.args, got, tt.want)
			}
		})
	}
}

// TestMCPHTTP serves a mutant with --mcp http from the TOOLCERT_*
// environment and calls it with a go-sdk client at /mcp.
func TestMCPHTTP(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice"}`)
	}))
	defer up.Close()
	addr := freeAddr(t)
	t.Setenv("TOOLCERT_UPSTREAM_URL", up.URL)
	t.Setenv("TOOLCERT_LISTEN", addr)
	t.Setenv("TOOLCERT_AUDIT_FILE", os.DevNull)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout strings.Builder
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"--mutant", "no-retry", "--mcp", "http"}, &stdout, io.Discard) }()
	waitHealthy(t, "http://"+addr+"/healthz")

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "review_status", Arguments: json.RawMessage(`{"change_id":"CR-1042"}`)})
	if err != nil {
		t.Fatal(err)
	}
	cs.Close()
	if res.IsError || res.Content[0].(*mcp.TextContent).Text != `{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice"}` {
		t.Errorf("call: isError %t, content %v; want the data", res.IsError, res.Content)
	}
	cancel()
	select {
	case code := <-done:
		if code != exitOK || stdout.Len() != 0 {
			t.Errorf("run = %d, stdout %q; want 0 and nothing", code, stdout.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the mutant did not stop after its context was cancelled")
	}
}

// freeAddr returns a loopback address no one listens on, for now.
func freeAddr(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// waitHealthy waits up to 10 s for url to answer 200.
func waitHealthy(tb testing.TB, url string) {
	tb.Helper()
	client := &http.Client{Timeout: time.Second}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if resp, err := client.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
	}
	tb.Fatalf("%s never answered 200", url)
}
