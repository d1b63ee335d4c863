package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolcert/toolcert/protocol"
)

// mcpPath is where Handler serves the MCP endpoint (docs/protocol.md).
const mcpPath = "/mcp"

// shutdownGrace is how long Serve lets in-flight requests finish once its
// context is done.
const shutdownGrace = 3 * time.Second

// ServeStdio serves srv on the process's standard input and output until
// the client closes standard input (it then returns nil) or ctx is done
// (nil too). Standard output then carries JSON-RPC messages only: the
// caller must write nothing else there, and send its logs and the
// adapter's audit events to standard error or a file.
func ServeStdio(ctx context.Context, srv *mcp.Server) error {
	return run(ctx, srv, &mcp.StdioTransport{})
}

// run runs srv over t until the client leaves (Run returns nil at the end
// of its input) or ctx is done (Run returns ctx's error).
func run(ctx context.Context, srv *mcp.Server, t mcp.Transport) error {
	if err := srv.Run(ctx, t); err != nil && ctx.Err() == nil {
		return fmt.Errorf("serve mcp over stdio: %w", err)
	}
	return nil
}

// Handler returns the streamable HTTP form of srv: the MCP endpoint at
// /mcp, with the go-sdk's sessions and its protection against DNS
// rebinding (a request to a loopback address must name a loopback host),
// and GET /healthz answering 200, the readiness probe of every target.
func Handler(srv *mcp.Server) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(mcpPath, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	mux.HandleFunc("GET "+protocol.HealthPath, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		io.WriteString(w, "ok\n")
	})
	return mux
}

// Serve serves [Handler] of srv on ln until ctx is done; it then closes
// srv's sessions, gives in-flight requests a grace period and closes ln. It
// returns nil after ctx is done.
func Serve(ctx context.Context, srv *mcp.Server, ln net.Listener) error {
	hs := &http.Server{
		Handler:           Handler(srv),
		ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout:       30 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		for ss := range srv.Sessions() {
			ss.Close() // ends the session's open streams, which Shutdown would wait for
		}
		shutdown, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		if hs.Shutdown(shutdown) != nil {
			hs.Close()
		}
	}()
	err := hs.Serve(ln)
	stop()
	<-stopped
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return fmt.Errorf("serve mcp over http: %w", err)
}
