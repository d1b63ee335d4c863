package mcpbridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/targets"
)

// Tool is one protocol v1 tool as the bridge serves it: Name is the
// protocol tool's name and becomes the MCP tool's; InputSchema is the JSON
// Schema of its arguments (the "args" schema of the reference's tools), a
// JSON object whose "type" is "object", sent to clients as the MCP tool's
// inputSchema and never applied by the bridge.
type Tool struct {
	Name        string
	InputSchema json.RawMessage
}

// ErrTool is returned by [New] for a tool it cannot serve: no name, a name
// given twice, or an input schema that is not a JSON object of type
// "object" (which MCP requires).
var ErrTool = errors.New("mcpbridge: invalid tool")

// New returns an MCP server with one tool per element of tools, each call
// answered by adapter, a protocol v1 handler (POST /v1/tools/{tool}/invoke)
// called in process.
//
// A call's arguments reach adapter as the client sent them, as the body
// {"arguments": ...} ({} when the call has none); a non-empty string in the
// request's _meta["dev.toolcert/token"] becomes its "Authorization: Bearer"
// header (anything else there is no token). The envelope adapter answers becomes the
// result: a success is isError false with the data as structuredContent
// and as the JSON of one text block; a failure is isError true with
// {"error": {"code", "retryable"}} the same two ways; and each carries the
// request id in _meta["dev.toolcert/request_id"]. Nothing else of the
// answer reaches the client: not its status, headers or other members.
//
// A pending_approval answer fails as DENIED: approving needs the human's
// endpoint (POST /v1/approvals/{id}), which MCP does not have, so the
// approval id is withheld. An answer that is no valid envelope, or a panic
// of adapter, is a JSON-RPC internal error with a fixed message (logged,
// see [WithLogger]).
//
// The server declares, under protocol.ExperimentalKey, the capabilities
// of a protocol v1 adapter that cross the bridge: its audit log and its
// policy (docs/protocol.md, "Capabilities and steps that do not apply").
//
// The server declares no outputSchema: a failure's structuredContent is not
// the tool's data, and a mutant's data need not fit its contract. The
// caller keeps adapter open while the server runs and closes it
// afterwards.
func New(adapter http.Handler, tools []Tool, opts ...Option) (*mcp.Server, error) {
	s := defaultSettings()
	for _, o := range opts {
		o(&s)
	}
	impl := s.impl
	srv := mcp.NewServer(&impl, &mcp.ServerOptions{Capabilities: declared()})
	seen := map[string]bool{}
	for _, t := range tools {
		if err := checkTool(t, seen); err != nil {
			return nil, err
		}
		c := &caller{adapter: adapter, tool: t.Name, logger: s.logger}
		// Server.AddTool, unlike the typed mcp.AddTool, neither validates
		// the arguments nor fills in defaults: the adapter judges them.
		srv.AddTool(&mcp.Tool{Name: t.Name, InputSchema: t.InputSchema}, c.call)
	}
	return srv, nil
}

// checkTool reports whether New can serve t, and marks its name seen.
func checkTool(t Tool, seen map[string]bool) error {
	if t.Name == "" || seen[t.Name] {
		return fmt.Errorf("%w: name %q empty or repeated", ErrTool, t.Name)
	}
	seen[t.Name] = true
	var schema struct {
		Type any `json:"type"`
	}
	if err := json.Unmarshal(t.InputSchema, &schema); err != nil || schema.Type != "object" {
		return fmt.Errorf("%w: %s: input schema is not a JSON object of type \"object\"", ErrTool, t.Name)
	}
	return nil
}

// declared returns the server capabilities with what the bridge declares
// for toolcert: a v1 adapter's audit log and policy; approvals do not
// cross (MCP has no endpoint for the human).
func declared() *mcp.ServerCapabilities {
	return &mcp.ServerCapabilities{Experimental: map[string]any{
		protocol.ExperimentalKey: map[string]any{
			"capabilities": []string{targets.CapabilityAudit, targets.CapabilityPolicy},
		},
	}}
}
