package mcpbridge

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Mode names how a bridge is served: [ModeStdio] or [ModeHTTP]. The zero
// Mode is none: the adapter is served over protocol v1 HTTP, not over MCP.
// A *Mode is a flag.Value, so that a command can take it as --mcp.
type Mode string

var _ flag.Value = (*Mode)(nil)

// The modes of `toolcert adapter --mcp` and `toolcert-mutant --mcp`.
const (
	ModeStdio Mode = "stdio" // JSON-RPC on standard input and output
	ModeHTTP  Mode = "http"  // streamable HTTP at /mcp
)

// ErrMode is returned by [Mode.Set] and [ListenAndServe] for a mode that is
// neither stdio nor http.
var ErrMode = errors.New("want stdio or http")

// String returns the mode's name.
func (m *Mode) String() string { return string(*m) }

// Set sets the mode from its name, stdio or http.
func (m *Mode) Set(s string) error {
	switch Mode(s) {
	case ModeStdio, ModeHTTP:
		*m = Mode(s)
		return nil
	}
	return ErrMode
}

// ListenAndServe serves srv in mode m until ctx is done: [ServeStdio] for
// stdio, [Serve] on a listener on addr (host:port) for http.
func ListenAndServe(ctx context.Context, srv *mcp.Server, m Mode, addr string) error {
	switch m {
	case ModeStdio:
		return ServeStdio(ctx, srv)
	case ModeHTTP:
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return fmt.Errorf("serve mcp over http: listen: %w", err)
		}
		return Serve(ctx, srv, ln)
	}
	return fmt.Errorf("serve mcp in mode %q: %w", m, ErrMode)
}
