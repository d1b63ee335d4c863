package mcpbridge

import (
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Option changes how [New] builds the server. The defaults are set in one
// place, defaultSettings.
type Option func(*settings)

// settings holds what an Option may change.
type settings struct {
	impl   mcp.Implementation
	logger *slog.Logger
}

// defaultSettings returns the defaults: the server names itself
// toolcert-mcpbridge, version v1 (the protocol it bridges), and logs nothing.
func defaultSettings() settings {
	return settings{
		impl:   mcp.Implementation{Name: "toolcert-mcpbridge", Version: "v1"},
		logger: slog.New(slog.DiscardHandler),
	}
}

// WithImplementation sets the name and version the server announces to
// every client: serverInfo at initialization and, for a client speaking MCP
// 2026-07-28, _meta["io.modelcontextprotocol/serverInfo"] of every result
// (the go-sdk adds it, SEP-2575). Both are agent-visible: pass fixed text,
// never anything read from an upstream.
func WithImplementation(name, version string) Option {
	return func(s *settings) { s.impl = mcp.Implementation{Name: name, Version: version} }
}

// WithLogger sets the operator's log: what the bridge withholds from the
// client (an answer of the adapter that is no envelope, a panic of its
// handler). The go-sdk's own server log stays off. Pass a logger that
// writes to standard error, never to standard output when serving over
// stdio.
func WithLogger(l *slog.Logger) Option {
	return func(s *settings) {
		if l != nil {
			s.logger = l
		}
	}
}
