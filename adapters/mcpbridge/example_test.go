package mcpbridge_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolcert/toolcert/adapters/mcpbridge"
)

// A protocol v1 adapter (here a fake that always answers the same
// envelope) served over MCP to a client connected in memory.
func ExampleNew() {
	adapter := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		fmt.Printf("adapter: %s %s %q %s\n", r.Method, r.URL.Path, r.Header.Get("Authorization"), body)
		io.WriteString(w, `{"tool":"review_status","request_id":"req.J7q94MkP","outcome":"failure","error":{"code":"NOT_FOUND","retryable":false}}`)
	})
	srv, err := mcpbridge.New(adapter, []mcpbridge.Tool{
		{Name: "review_status", InputSchema: json.RawMessage(`{"type":"object","properties":{"change_id":{"type":"string"}}}`)},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, serverEnd, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v0"}, nil).Connect(ctx, clientEnd, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{
		Meta:      mcp.Meta{"dev.toolcert/token": "toolcert-agent"},
		Name:      "review_status",
		Arguments: map[string]any{"change_id": "CR-1042"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("isError:", res.IsError)
	fmt.Println("text:", res.Content[0].(*mcp.TextContent).Text)
	fmt.Println("request id:", res.Meta["dev.toolcert/request_id"])
	// Output:
	// adapter: POST /v1/tools/review_status/invoke "Bearer toolcert-agent" {"arguments":{"change_id":"CR-1042"}}
	// isError: true
	// text: {"error":{"code":"NOT_FOUND","retryable":false}}
	// request id: req.J7q94MkP
}

func ExampleReferenceTools() {
	tools, err := mcpbridge.ReferenceTools()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range tools {
		fmt.Println(t.Name, json.Valid(t.InputSchema))
	}
	// Output:
	// deploy_status true
	// host_uptime true
	// purge_cache true
	// request_refund true
	// review_status true
	// run_status true
	// send_email true
}

func ExampleServe() {
	srv, err := mcpbridge.New(http.NotFoundHandler(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mcpbridge.Serve(ctx, srv, ln) }()
	client := &http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get("http://" + ln.Addr().String() + "/healthz")
	if err == nil {
		fmt.Println(resp.StatusCode)
		resp.Body.Close()
	}
	cancel() // a real caller cancels on SIGINT or SIGTERM
	fmt.Println(<-done)
	// Output:
	// 200
	// <nil>
}

func ExampleHandler() {
	srv, err := mcpbridge.New(http.NotFoundHandler(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	ts := httptest.NewServer(mcpbridge.Handler(srv)) // the caller should call Close when finished
	defer ts.Close()
	for _, path := range []string{"/healthz", "/v1/tools/review_status/invoke"} {
		resp, err := ts.Client().Get(ts.URL + path)
		if err != nil {
			fmt.Println(err)
			return
		}
		resp.Body.Close()
		fmt.Println(path, resp.StatusCode)
	}
	// Output:
	// /healthz 200
	// /v1/tools/review_status/invoke 404
}

func ExampleServeStdio() {
	srv, err := mcpbridge.New(http.NotFoundHandler(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // a real caller cancels on SIGINT or SIGTERM, or the client closes stdin
	fmt.Println(mcpbridge.ServeStdio(ctx, srv))
	// Output:
	// <nil>
}

func ExampleMode() {
	fs := flag.NewFlagSet("adapter", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var mode mcpbridge.Mode
	fs.Var(&mode, "mcp", "serve over MCP, `mode` stdio or http")
	fmt.Println(fs.Parse([]string{"--mcp", "http"}), mode == mcpbridge.ModeHTTP)
	fmt.Println(fs.Parse([]string{"--mcp", "sse"}))
	// Output:
	// <nil> true
	// invalid value "sse" for flag -mcp: want stdio or http
}

func ExampleListenAndServe() {
	srv, err := mcpbridge.New(http.NotFoundHandler(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // a real caller cancels on SIGINT or SIGTERM
	fmt.Println(mcpbridge.ListenAndServe(ctx, srv, mcpbridge.ModeHTTP, "127.0.0.1:0"))
	fmt.Println(mcpbridge.ListenAndServe(ctx, srv, "sse", "127.0.0.1:0"))
	// Output:
	// <nil>
	// serve mcp in mode "sse": want stdio or http
}
