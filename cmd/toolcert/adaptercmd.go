package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/protocol"
)

var adapterSynopsis = fmt.Sprintf(`Usage: toolcert adapter

Serves the reference adapter (built from the gate library) until interrupted.
It is configured from the environment, as every target is (docs/protocol.md):

  %-23s base URL of the upstream (required)
  %-23s host:port to listen on (default 127.0.0.1:8080)
  %-23s operator audit log, JSON Lines (default: standard error)
  %-23s call-side policy (default: the four read tools, open)
  %s, %s, %s, %s,
  %s, %s, %s   limits`,
	protocol.VarUpstreamURL, protocol.VarListen, protocol.VarAuditFile, protocol.VarPolicyFile,
	protocol.VarMaxBytes, protocol.VarMaxDepth, protocol.VarMaxAttempts, protocol.VarDeadline,
	protocol.VarReadTimeout, protocol.VarFreshness, protocol.VarFutureSkew)

func adapterCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("adapter", adapterSynopsis, stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg, err := reference.ConfigFromEnv(os.Getenv)
	if err != nil {
		return usageErr("%v", err)
	}
	fmt.Fprintf(stderr, "toolcert adapter: reference adapter on %s, upstream %s\n", cfg.Listen, cfg.UpstreamURL)
	if err := reference.Serve(ctx, cfg); err != nil {
		return fmt.Errorf("serve reference adapter: %w", err)
	}
	return nil
}
