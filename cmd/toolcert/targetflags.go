package main

import (
	"flag"
	"fmt"

	"github.com/toolcert/toolcert/internal/runconfig"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/targets"
)

// registerTarget registers onto f the flags that choose the adapter under
// test, shared by run and replay.
func registerTarget(fs *flag.FlagSet, f *runconfig.Flags) {
	fs.StringVar(&f.TargetCmd, "target-cmd", f.TargetCmd, "start the adapter as a local process per lane: `\"CMD ARGS\"`, split into words as a shell would\n(quotes respected; no $-expansion or pipes); it gets the TOOLCERT_* environment of docs/protocol.md")
	fs.StringVar(&f.TargetImage, "target-image", f.TargetImage, "start the adapter as one container per lane from the local Docker `IMAGE` (never pulled); its\nentrypoint must serve the protocol, on the host's network, with the TOOLCERT_* environment and the\naudit and policy folders mounted at their host paths (docs/containers.md). Where Ryuk's image cannot\nbe pulled, run toolcert with TESTCONTAINERS_RYUK_DISABLED=true")
	fs.StringVar(&f.TargetMCPCmd, "target-mcp-cmd", f.TargetMCPCmd, "start an MCP server as a local process per lane: `\"CMD ARGS\"`, speaking JSON-RPC on its stdin and\nstdout (its stderr is kept for evidence), with the TOOLCERT_* environment (docs/protocol.md)")
	fs.StringVar(&f.TargetMCPURL, "target-mcp-url", f.TargetMCPURL, "use an MCP server already serving streamable HTTP at `URL` (e.g. http://127.0.0.1:8080/mcp; one lane)")
	fs.StringVar(&f.TargetURL, "target-url", f.TargetURL, "use an adapter already running at `URL`; it must use the mock at --upstream-listen (one lane)")
	fs.StringVar(&f.UpstreamListen, "upstream-listen", f.UpstreamListen, "with --target-url: loopback `ADDR` (host:port) the mock upstream listens on")
	fs.StringVar(&f.AuditFile, "audit-file", f.AuditFile, "with --target-url: `PATH` of the running adapter's audit log, so audit steps can read it")
	fs.StringVar(&f.Profile, "profile", f.Profile, "JSON `FILE` declaring the target's limits (max_bytes, max_depth, max_attempts, deadline,\nread_timeout, freshness, future_skew, ready_timeout, token, rename, upstream_versions; docs/profile.md);\ndefault: the reference adapter's")
	fs.DurationVar(&f.ReadyTimeout, "ready-timeout", f.ReadyTimeout, fmt.Sprintf("how long each target instance may take to be ready (GET /healthz, or MCP initialize),\na Go `DURATION` such as 20s; default: the profile's ready_timeout, or %s", protocol.ReadyTimeout))
}

// loadProfile returns the profile in the file at path, or the zero
// profile, which runner and corpus take as the default, when path is "".
func loadProfile(path string) (targets.Profile, error) {
	if path == "" {
		return targets.Profile{}, nil
	}
	p, err := targets.LoadProfile(path)
	if err != nil {
		return p, usageErr("%v", err)
	}
	return p, nil
}
