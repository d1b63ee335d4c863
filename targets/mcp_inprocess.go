package targets

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPBuildFunc builds the MCP server of one in-process instance for env.
// The closer, when not nil, is closed after the session has ended.
type MCPBuildFunc func(env Env) (*mcp.Server, io.Closer, error)

// InProcessMCP is a Target whose MCP server runs inside the harness,
// connected to the agent's client in memory: the reference adapter and the
// self-test's mutants over MCP.
type InProcessMCP struct {
	name         string
	build        MCPBuildFunc
	readyTimeout time.Duration
}

var _ Target = (*InProcessMCP)(nil)

// NewInProcessMCP returns a target named name (for reports) whose
// instances serve the server build returns.
func NewInProcessMCP(name string, build MCPBuildFunc) *InProcessMCP {
	return &InProcessMCP{name: name, build: build, readyTimeout: defaultReadyTimeout}
}

// String returns "in-process mcp <name>".
func (t *InProcessMCP) String() string { return "in-process mcp " + t.name }

// Start builds the server, connects it to a client in memory and
// initializes the session. The caller must call Stop on the instance.
func (t *InProcessMCP) Start(ctx context.Context, env Env) (Instance, error) {
	srv, closer, err := t.build(env)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", t, err)
	}
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, serverEnd, nil)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("start %s: %w", t, err), closeIf(closer))
	}
	s, err := connectMCP(ctx, clientEnd, &capture{}, t.readyTimeout)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("start %s: %w", t, err), ss.Close(), closeIf(closer))
	}
	return &mcpInProcessInstance{mcpSession: s, server: ss, closer: closer, name: t.String()}, nil
}

// closeIf closes c when it is not nil.
func closeIf(c io.Closer) error {
	if c == nil {
		return nil
	}
	return c.Close()
}

// mcpInProcessInstance is one in-memory session of an InProcessMCP target.
type mcpInProcessInstance struct {
	*mcpSession
	server  *mcp.ServerSession
	closer  io.Closer
	name    string
	stopped bool
	once    sync.Once
	stopErr error
	mu      sync.Mutex
}

var _ MCPInstance = (*mcpInProcessInstance)(nil)

// URL returns "": the server is in memory.
func (i *mcpInProcessInstance) URL() string { return "" }

// Logs returns "": an in-process server prints nothing of its own.
func (i *mcpInProcessInstance) Logs() string { return "" }

// Transport returns TransportMemory.
func (i *mcpInProcessInstance) Transport() string { return TransportMemory }

// Noise returns nothing: there is no stdout.
func (i *mcpInProcessInstance) Noise() []string { return nil }

// Alive returns ErrStopped after Stop, or the error of a ping.
func (i *mcpInProcessInstance) Alive(ctx context.Context) error {
	i.mu.Lock()
	stopped := i.stopped
	i.mu.Unlock()
	if stopped {
		return fmt.Errorf("alive %s: %w", i.name, ErrStopped)
	}
	return i.ping(ctx, probeTimeout)
}

// Stop ends both sessions and closes what the build returned, once.
func (i *mcpInProcessInstance) Stop(context.Context) error {
	i.once.Do(func() {
		i.mu.Lock()
		i.stopped = true
		i.mu.Unlock()
		i.stopErr = errors.Join(i.close(), i.server.Close(), closeIf(i.closer))
	})
	return i.stopErr
}
