package targets

import (
	"context"
	"encoding/json"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPInstance is a running MCP target: an initialized client session the
// agent calls tools on. The instances of MCPStdio, MCPHTTP and InProcessMCP
// implement it; their URL is "" (stdio, in-process) or the endpoint.
type MCPInstance interface {
	Instance
	// CallTool calls the tool name with args (a JSON object, sent as it is)
	// and meta as the request's _meta, and returns what the client received
	// while the call ran. The error wraps ErrTimeout when ctx ended first
	// and ErrConnection when the session broke; the MCPCall holds what was
	// received even then.
	CallTool(ctx context.Context, name string, args json.RawMessage, meta map[string]any) (*MCPCall, error)
	// Tools returns the tools the server listed right after initialize.
	Tools() []*mcp.Tool
	// ListTools asks the server for its tools again.
	ListTools(ctx context.Context) ([]*mcp.Tool, error)
	// Server returns what the server said of itself in initialize.
	Server() *mcp.Implementation
	// Capabilities returns what the server declared of itself in its
	// initialize result (docs/protocol.md, "Capabilities and steps that do
	// not apply"): none unless it names them.
	Capabilities() Capabilities
	// Transport names how the client reaches the server: TransportStdio,
	// TransportHTTP or TransportMemory.
	Transport() string
	// Noise returns what the server wrote on stdout that is not a
	// JSON-RPC message (a banner, a log line), since it started: at most
	// the first few lines, each clipped. It is empty for transports without
	// a stdout.
	Noise() []string
}

// The transports of an MCPInstance.
const (
	TransportStdio  = "stdio"
	TransportHTTP   = "http"
	TransportMemory = "memory"
)

// MCPCall is what the agent's client received during one tools/call.
type MCPCall struct {
	// Result is the call's result; nil when the server answered a JSON-RPC
	// error, or nothing.
	Result *mcp.CallToolResult
	// RPCError is the JSON-RPC error the server answered, or nil.
	RPCError *jsonrpc.Error
	// Traffic is every message the server sent while the call ran,
	// notifications and log messages included, one JSON text per message
	// (and, for stdio, every other line it wrote on stdout), at most
	// maxTraffic bytes.
	Traffic []byte
	// TrafficTruncated reports that more was sent than Traffic holds.
	TrafficTruncated bool
	// Elapsed is the time from sending the call to its answer.
	Elapsed time.Duration
}
