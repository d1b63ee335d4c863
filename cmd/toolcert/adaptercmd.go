package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/toolcert/toolcert/adapters/reference"
)

const adapterSynopsis = `Usage: toolcert adapter

Serves the reference adapter (built from the gate library) until interrupted.
It is configured from the environment, as every target is (docs/protocol.md):

  TOOLCERT_UPSTREAM_URL   base URL of the upstream (required)
  TOOLCERT_LISTEN         host:port to listen on (default 127.0.0.1:8080)
  TOOLCERT_AUDIT_FILE     operator audit log, JSON Lines (default: standard error)
  TOOLCERT_MAX_BYTES, TOOLCERT_MAX_DEPTH, TOOLCERT_MAX_ATTEMPTS, TOOLCERT_DEADLINE,
  TOOLCERT_READ_TIMEOUT, TOOLCERT_FRESHNESS, TOOLCERT_FUTURE_SKEW   limits`

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
