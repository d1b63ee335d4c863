package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/toolcert/toolcert/adapters/mcpbridge"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/protocol"
)

var adapterSynopsis = fmt.Sprintf(`Usage: toolcert adapter [--mcp stdio|http]

Serves the reference adapter (built from the gate library) until interrupted,
over protocol v1 HTTP, or with --mcp as an MCP server: one MCP tool per tool,
the session token in each call's _meta["dev.toolcert/token"]
(docs/protocol.md, "The reference adapter over MCP").

  --mcp stdio   JSON-RPC on standard input and output; nothing else is
                written to standard output (logs and audit: standard error)
  --mcp http    streamable HTTP at /mcp, and GET /healthz, on %s

It is configured from the environment, as every target is (docs/protocol.md):

  %-23s base URL of the upstream (required)
  %-23s host:port to listen on (default 127.0.0.1:8080)
  %-23s operator audit log, JSON Lines (default: standard error)
  %-23s call-side policy (default: the four read tools, open)
  %s, %s, %s, %s,
  %s, %s, %s   limits`,
	protocol.VarListen,
	protocol.VarUpstreamURL, protocol.VarListen, protocol.VarAuditFile, protocol.VarPolicyFile,
	protocol.VarMaxBytes, protocol.VarMaxDepth, protocol.VarMaxAttempts, protocol.VarDeadline,
	protocol.VarReadTimeout, protocol.VarFreshness, protocol.VarFutureSkew)

func adapterCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("adapter", adapterSynopsis, stderr)
	var mode mcpbridge.Mode
	fs.Var(&mode, "mcp", "serve over MCP, `mode` stdio or http (default: protocol v1 HTTP)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg, err := reference.ConfigFromEnv(os.Getenv)
	if err != nil {
		return usageErr("%v", err)
	}
	if mode != "" {
		return serveMCP(ctx, cfg, mode, stderr)
	}
	fmt.Fprintf(stderr, "toolcert adapter: reference adapter on %s, upstream %s\n", cfg.Listen, cfg.UpstreamURL)
	if err := reference.Serve(ctx, cfg); err != nil {
		return fmt.Errorf("serve reference adapter: %w", err)
	}
	return nil
}

// serveMCP serves the reference adapter for cfg over MCP in mode until ctx
// is done. It writes only to stderr: over stdio, standard output is the
// JSON-RPC stream.
func serveMCP(ctx context.Context, cfg reference.Config, mode mcpbridge.Mode, stderr io.Writer) error {
	a, err := reference.New(cfg)
	if err != nil {
		return fmt.Errorf("serve reference adapter: %w", err)
	}
	defer a.Close()
	tools, err := mcpbridge.ReferenceTools()
	if err != nil {
		return fmt.Errorf("serve reference adapter: %w", err)
	}
	srv, err := mcpbridge.New(a, tools,
		mcpbridge.WithImplementation("toolcert-reference", reference.Version),
		mcpbridge.WithLogger(slog.New(slog.NewTextHandler(stderr, nil))))
	if err != nil {
		return fmt.Errorf("serve reference adapter: %w", err)
	}
	where := "stdio"
	if mode == mcpbridge.ModeHTTP {
		where = "http://" + cfg.Listen + "/mcp"
	}
	fmt.Fprintf(stderr, "toolcert adapter: reference adapter over MCP on %s, upstream %s\n", where, cfg.UpstreamURL)
	if err := mcpbridge.ListenAndServe(ctx, srv, mode, cfg.Listen); err != nil {
		return fmt.Errorf("serve reference adapter: %w", err)
	}
	return nil
}
