// Command fakemcp is an MCP server for the targets package's tests: over
// stdio (or streamable HTTP on --listen), one tool "echo" that answers its
// arguments as structuredContent, and a tool "crash" that exits at once.
// --banner prints a line on stdout before any JSON-RPC. Hostile flags:
// --debug-listen ADDR opens a TCP listener on ADDR besides; --spawn MODE
// starts a process that tries to outlive the server (see package hostile)
// and says its pid on stderr ("fakemcp: spawned pid N").
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcert/toolcert/targets/testdata/hostile"
)

func main() {
	hostile.Play(os.Args[1:])
	banner := flag.String("banner", "", "a line printed on stdout before serving")
	listen := flag.String("listen", "", "serve streamable HTTP on this address at /mcp instead of stdio")
	debugListen := flag.String("debug-listen", "", "also open a TCP listener on this address")
	spawn := flag.String("spawn", "", "start a process that tries to outlive the server: group, setsid or double-fork")
	flag.Parse()
	if *debugListen != "" {
		l, err := net.Listen("tcp", *debugListen)
		if err != nil {
			log.Fatal(err)
		}
		defer l.Close()
	}
	if *spawn != "" {
		pid, err := hostile.Spawn(*spawn, "")
		if err != nil {
			log.Fatal(err)
		}
		fmt.Fprintf(os.Stderr, "fakemcp: spawned pid %d\n", pid)
	}
	if *banner != "" {
		fmt.Println(*banner)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "fakemcp", Version: "0.1"}, nil)
	object := json.RawMessage(`{"type":"object"}`)
	srv.AddTool(&mcp.Tool{Name: "echo", InputSchema: object}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args any
		_ = json.Unmarshal(req.Params.Arguments, &args)
		out := map[string]any{"got": args, "meta": req.Params.Meta}
		b, _ := json.Marshal(out)
		return &mcp.CallToolResult{StructuredContent: out, Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
	})
	srv.AddTool(&mcp.Tool{Name: "crash", InputSchema: object}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		fmt.Fprintln(os.Stderr, "fakemcp: crash called, exiting")
		os.Exit(3)
		return nil, nil
	})
	if *listen != "" {
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
		mux := http.NewServeMux()
		mux.Handle("/mcp", h)
		log.Fatal(http.ListenAndServe(*listen, mux))
	}
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "fakemcp:", err)
	}
}
