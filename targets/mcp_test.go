//go:build unix

package targets

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// buildFakeMCP compiles testdata/fakemcp and returns the binary's path.
func buildFakeMCP(tb testing.TB) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "fakemcp")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "./testdata/fakemcp").CombinedOutput()
	if err != nil {
		tb.Fatalf("build fakemcp: %v\n%s", err, out)
	}
	return bin
}

// echoServer is an in-process MCP server with the tool echo.
func echoServer(Env) (*mcp.Server, io.Closer, error) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{StructuredContent: json.RawMessage(req.Params.Arguments),
			Content: []mcp.Content{&mcp.TextContent{Text: string(req.Params.Arguments)}}}, nil
	})
	return srv, nil, nil
}

// startMCP starts target and stops the instance at the end of the test.
func startMCP(tb testing.TB, target Target) MCPInstance {
	tb.Helper()
	inst, err := target.Start(context.Background(), Env{})
	if err != nil {
		tb.Fatalf("start %s: %v", target, err)
	}
	tb.Cleanup(func() { inst.Stop(context.Background()) })
	mi, ok := inst.(MCPInstance)
	if !ok {
		tb.Fatalf("%s's instance is not an MCPInstance", target)
	}
	return mi
}

// callEcho calls echo with a canary argument and checks what came back.
func callEcho(t *testing.T, inst MCPInstance) *MCPCall {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	call, err := inst.CallTool(ctx, "echo", json.RawMessage(`{"say":"canary-7f3a"}`), map[string]any{"dev.toolcert/token": "tok"})
	if err != nil {
		t.Fatalf("call echo: %v", err)
	}
	if call.Result == nil || call.Result.IsError || call.RPCError != nil {
		t.Fatalf("call echo: result %+v, rpc error %v", call.Result, call.RPCError)
	}
	if !strings.Contains(string(call.Traffic), "canary-7f3a") {
		t.Errorf("the call's traffic lacks what the server sent: %q", call.Traffic)
	}
	return call
}

func TestInProcessMCP(t *testing.T) {
	inst := startMCP(t, NewInProcessMCP("echo", echoServer))
	if tools := inst.Tools(); len(tools) != 1 || tools[0].Name != "echo" {
		t.Errorf("tools %v, want echo", tools)
	}
	if inst.Server() == nil || inst.Server().Name != "echo" {
		t.Errorf("server %+v, want echo", inst.Server())
	}
	callEcho(t, inst)
	call, err := inst.CallTool(context.Background(), "no_such_tool", json.RawMessage(`{}`), nil)
	if err != nil || call.RPCError == nil || call.Result != nil {
		t.Fatalf("an unknown tool: call %+v, err %v; want a JSON-RPC error", call, err)
	}
	if !strings.Contains(string(call.Traffic), `"error"`) || !strings.Contains(call.RPCError.Message, "no_such_tool") {
		t.Errorf("the error %+v and its traffic %q", call.RPCError, call.Traffic)
	}
	if err := inst.Alive(context.Background()); err != nil {
		t.Errorf("alive: %v", err)
	}
	inst.Stop(context.Background())
	if err := inst.Alive(context.Background()); !errors.Is(err, ErrStopped) {
		t.Errorf("alive after stop: %v, want ErrStopped", err)
	}
}

func TestMCPStdio(t *testing.T) {
	bin := buildFakeMCP(t)
	t.Run("serves", func(t *testing.T) {
		target, err := NewMCPStdio([]string{bin})
		if err != nil {
			t.Fatal(err)
		}
		inst := startMCP(t, target)
		call := callEcho(t, inst)
		if got := string(call.Result.StructuredContent.(map[string]any)["meta"].(map[string]any)["dev.toolcert/token"].(string)); got != "tok" {
			t.Errorf("the server got token %q in _meta, want tok", got)
		}
		if n := inst.Noise(); len(n) != 0 {
			t.Errorf("noise %q from a clean server", n)
		}
	})
	t.Run("banner is noise", func(t *testing.T) {
		target, _ := NewMCPStdio([]string{bin, "--banner", "Starting fake server v0.1 on stdio"})
		inst := startMCP(t, target)
		callEcho(t, inst)
		if n := inst.Noise(); len(n) != 1 || !strings.Contains(n[0], "Starting fake server") {
			t.Errorf("noise %q, want the banner", n)
		}
	})
	t.Run("crash is an exit", func(t *testing.T) {
		target, _ := NewMCPStdio([]string{bin})
		inst := startMCP(t, target)
		_, err := inst.CallTool(context.Background(), "crash", json.RawMessage(`{}`), nil)
		var exit *ExitError
		if !errors.As(err, &exit) || !errors.Is(err, ErrConnection) || !strings.Contains(exit.Tail, "crash called") {
			t.Fatalf("a crashing call: %v, want ErrConnection with the exit status and stderr tail", err)
		}
		if err := inst.Alive(context.Background()); !errors.As(err, &exit) {
			t.Errorf("alive after the crash: %v, want an *ExitError", err)
		}
	})
	t.Run("not a server", func(t *testing.T) {
		target, _ := NewMCPStdio([]string{"sh", "-c", "echo hello, I am not MCP; sleep 30"}, WithReadyTimeout(500*time.Millisecond))
		_, err := target.Start(context.Background(), Env{})
		if !errors.Is(err, ErrNotReady) || !strings.Contains(err.Error(), "hello, I am not MCP") {
			t.Fatalf("start: %v, want ErrNotReady naming the stdout line", err)
		}
	})
	t.Run("exits at once", func(t *testing.T) {
		target, _ := NewMCPStdio([]string{"sh", "-c", "echo broken >&2; exit 4"})
		_, err := target.Start(context.Background(), Env{})
		var exit *ExitError
		if !errors.As(err, &exit) || exit.ExitCode != 4 {
			t.Fatalf("start: %v, want an *ExitError with status 4", err)
		}
	})
}

func TestMCPHTTP(t *testing.T) {
	t.Run("url", func(t *testing.T) {
		srv, _, _ := echoServer(Env{})
		ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
		defer ts.Close()
		target, err := NewMCPURL(ts.URL)
		if err != nil {
			t.Fatal(err)
		}
		inst := startMCP(t, target)
		callEcho(t, inst)
		if inst.URL() != ts.URL {
			t.Errorf("URL %s, want %s", inst.URL(), ts.URL)
		}
	})
	t.Run("process per lane", func(t *testing.T) {
		bin := buildFakeMCP(t)
		target, err := NewMCPHTTPProcess([]string{"sh", "-c", bin + ` --listen "$TOOLCERT_LISTEN"`}, "")
		if err != nil {
			t.Fatal(err)
		}
		inst := startMCP(t, target)
		callEcho(t, inst)
	})
}
