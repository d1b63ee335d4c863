package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolcert/toolcert/internal/testpolicy"
)

// TestAdapterMCPStdio runs the real binary as `toolcert adapter --mcp
// stdio` under a go-sdk client: a call with a granted token gets the data
// and a request id its audit event (on standard error) carries, a token
// without the grant is denied, and standard output carries JSON-RPC
// messages and nothing else.
func TestAdapterMCPStdio(t *testing.T) {
	bin := buildToolcert(t)
	const canary = "CANARY-stdio-91c2"
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice","comment":"`+canary+`"}`)
	}))
	defer up.Close()
	policy := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(policy, []byte(testpolicy.Builtin()), 0o600); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "adapter", "--mcp", "stdio")
	// No TOOLCERT_AUDIT_FILE: the audit events go to standard error.
	cmd.Env = []string{"TOOLCERT_UPSTREAM_URL=" + up.URL, "TOOLCERT_POLICY_FILE=" + policy}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr, seen lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	transport := &mcp.IOTransport{Reader: readCloser{io.TeeReader(stdout, &seen), stdout}, Writer: stdin}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, transport, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr:\n%s", err, stderr.String())
	}
	call := func(token string) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{
			Meta: mcp.Meta{"dev.toolcert/token": token}, Name: "review_status", Arguments: map[string]any{"change_id": "CR-1042"},
		})
		if err != nil {
			t.Fatalf("call with %s: %v", token, err)
		}
		return res
	}
	ok, denied := call("toolcert-agent"), call("reader-token")
	if err := cs.Close(); err != nil { // closes standard input: the adapter ends
		t.Errorf("close: %v", err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("toolcert adapter --mcp stdio: %v\nstderr:\n%s", err, stderr.String())
	}

	if ok.IsError || !strings.Contains(ok.Content[0].(*mcp.TextContent).Text, `"reviewed_by":"alice"`) {
		t.Errorf("granted call: isError %t, content %v; want alice's review", ok.IsError, ok.Content)
	}
	if !denied.IsError || denied.Content[0].(*mcp.TextContent).Text != `{"error":{"code":"DENIED","retryable":false}}` {
		t.Errorf("call without the grant: isError %t, content %v; want DENIED", denied.IsError, denied.Content)
	}
	for _, res := range []*mcp.CallToolResult{ok, denied} {
		id, _ := res.Meta["dev.toolcert/request_id"].(string)
		if id == "" || !strings.Contains(stderr.String(), `"request_id":"`+id+`"`) {
			t.Errorf("request id %q is in no audit event on standard error:\n%s", id, stderr.String())
		}
	}
	out := seen.String()
	if out == "" || strings.Contains(out, canary) {
		t.Errorf("standard output is empty or carries the upstream's canary:\n%s", out)
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var msg struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil || msg.JSONRPC != "2.0" {
			t.Errorf("standard output line is not a JSON-RPC message: %q", sc.Text())
		}
	}
}

// readCloser reads from a Reader and closes a Closer.
type readCloser struct {
	io.Reader
	io.Closer
}

// lockedBuffer is a bytes.Buffer safe for one writer and one reader.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
