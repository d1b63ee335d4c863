package targets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolcert/toolcert/protocol"
)

// clientName is how the harness's MCP client introduces itself.
const clientName = "toolcert"

// mcpSession is an initialized client session with what an MCPInstance
// keeps of it: the tools listed at start, the server's info and the
// capture of the messages it sends.
type mcpSession struct {
	session *mcp.ClientSession
	capture *capture
	tools   []*mcp.Tool
	server  *mcp.Implementation
	caps    Capabilities
	callMu  sync.Mutex // one call at a time: the capture is per call
}

// connectMCP initializes a session over t (readiness is initialize),
// then lists the tools, all within timeout.
func connectMCP(ctx context.Context, t mcp.Transport, c *capture, timeout time.Duration) (*mcpSession, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	s := &mcpSession{capture: c}
	client := mcp.NewClient(&mcp.Implementation{Name: clientName, Version: "1"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	cs, err := client.Connect(ctx, capturingTransport{Transport: t, capture: s.capture}, nil)
	if err != nil {
		return nil, fmt.Errorf("initialize: %w", readiness(ctx, err))
	}
	s.session = cs
	if r := cs.InitializeResult(); r != nil {
		s.server = r.ServerInfo
		s.caps = declared(r.Capabilities)
	}
	s.tools, err = s.listTools(ctx)
	if err != nil {
		cs.Close()
		return nil, fmt.Errorf("tools/list: %w", readiness(ctx, err))
	}
	return s, nil
}

// readiness wraps err with ErrNotReady when ctx's time ran out.
func readiness(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %w", ErrNotReady, err)
	}
	return err
}

// listTools lists every tool, following pages.
func (s *mcpSession) listTools(ctx context.Context) ([]*mcp.Tool, error) {
	var tools []*mcp.Tool
	for t, err := range s.session.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// Tools returns the tools listed at start.
func (s *mcpSession) Tools() []*mcp.Tool { return s.tools }

// Capabilities returns what the server declared for toolcert.
func (s *mcpSession) Capabilities() Capabilities { return s.caps }

// declared reads the capabilities a server declares under
// protocol.ExperimentalKey.
func declared(c *mcp.ServerCapabilities) Capabilities {
	if c == nil {
		return Capabilities{}
	}
	ours, _ := c.Experimental[protocol.ExperimentalKey].(map[string]any)
	names, _ := ours["capabilities"].([]any)
	var out Capabilities
	for _, n := range names {
		switch n {
		case CapabilityAudit:
			out.Audit = true
		case CapabilityPolicy:
			out.Policy = true
		case CapabilityApprovals:
			out.Approvals = true
		}
	}
	return out
}

// Server returns the server's own description from initialize.
func (s *mcpSession) Server() *mcp.Implementation { return s.server }

// ListTools lists the tools again.
func (s *mcpSession) ListTools(ctx context.Context) ([]*mcp.Tool, error) { return s.listTools(ctx) }

// CallTool calls one tool and keeps what the server sent meanwhile.
func (s *mcpSession) CallTool(ctx context.Context, name string, args json.RawMessage, meta map[string]any) (*MCPCall, error) {
	s.callMu.Lock()
	defer s.callMu.Unlock()
	s.capture.begin()
	started := time.Now()
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	if len(meta) > 0 {
		params.Meta = mcp.Meta(meta)
	}
	res, err := s.session.CallTool(ctx, params)
	call := &MCPCall{Result: res, Elapsed: time.Since(started)}
	call.Traffic, call.TrafficTruncated = s.capture.end()
	if err == nil {
		return call, nil
	}
	call.Result = nil
	var wire *jsonrpc.Error
	switch {
	case errors.As(err, &wire):
		call.RPCError = wire
		return call, nil
	case ctx.Err() != nil:
		return call, fmt.Errorf("tools/call %q: %w: %w", name, ErrTimeout, err)
	}
	return call, fmt.Errorf("tools/call %q: %w: %w", name, ErrConnection, err)
}

// ping checks that the session still answers, within timeout.
func (s *mcpSession) ping(ctx context.Context, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := s.session.Ping(ctx, nil); err != nil {
		return fmt.Errorf("ping: %w", err)
	}
	return nil
}

// close ends the session.
func (s *mcpSession) close() error { return s.session.Close() }
