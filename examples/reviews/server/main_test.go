package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestRun serves both versions of the tool with run, over in-memory
// transports, against one accepted answer: each lists the tool and answers
// the same reviews.
func TestRun(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/repos/octo-org/hello-world/pulls/1347/reviews" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		io.WriteString(w, `[{"id": 2190230418, "state": "APPROVED", "user": {"login": "sam"}, "submitted_at": "2025-03-05T08:45:10Z"}]`)
	}))
	defer upstream.Close()
	want := map[string]any{"reviews": []any{map[string]any{
		"id": float64(2190230418), "state": "APPROVED", "user": map[string]any{"login": "sam"}, "submitted_at": "2025-03-05T08:45:10Z",
	}}}
	tests := []struct {
		name string
		args []string
	}{
		{"naive", nil},
		{"fixed", []string{"--fixed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			session := serve(t, tt.args, upstream.URL)
			res, err := session.CallTool(context.Background(), &mcp.CallToolParams{
				Name:      toolName,
				Arguments: map[string]any{"owner": "octo-org", "repo": "hello-world", "pull_number": 1347},
			})
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			if res.IsError {
				t.Fatalf("call failed: %+v", res.Content)
			}
			if diff := cmp.Diff(want, res.StructuredContent); diff != "" {
				t.Errorf("structured content (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRunUnknownFlag checks that an unknown flag is a usage error.
func TestRunUnknownFlag(t *testing.T) {
	var stderr strings.Builder
	if code := run(context.Background(), []string{"--leak-more"}, func(string) string { return "" }, nil, &stderr); code != 2 {
		t.Errorf("run --leak-more = %d, want 2; stderr:\n%s", code, stderr.String())
	}
}

// serve starts run with args and GITHUB_API_URL=upstream on an in-memory
// transport and returns a client session on it. The session and the
// server end with the test.
func serve(tb testing.TB, args []string, upstream string) *mcp.ClientSession {
	tb.Helper()
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	getenv := func(k string) string {
		if k == envAPIURL {
			return upstream
		}
		return ""
	}
	go func() { done <- run(ctx, args, getenv, serverSide, io.Discard) }()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil)
	session, err := client.Connect(ctx, clientSide, nil)
	if err != nil {
		cancel()
		tb.Fatalf("connect: %v", err)
	}
	tb.Cleanup(func() {
		session.Close()
		cancel()
		if code := <-done; code != 0 {
			tb.Errorf("run exited %d, want 0", code)
		}
	})
	return session
}
