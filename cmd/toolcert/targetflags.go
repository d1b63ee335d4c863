package main

import (
	"flag"
	"slices"
	"strings"

	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/targets"
)

// targetFlags are the flags that choose the adapter under test, shared by
// run and replay.
type targetFlags struct {
	cmd            string
	url            string
	image          string
	mcpCmd         string
	mcpURL         string
	upstreamListen string
	auditFile      string
	profile        string
}

func (t *targetFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&t.cmd, "target-cmd", "", "start the adapter as a local process per lane: `\"CMD ARGS\"`, split into words as a shell would\n(quotes respected; no $-expansion or pipes); it gets the TOOLCERT_* environment of docs/protocol.md")
	fs.StringVar(&t.image, "target-image", "", "start the adapter as one container per lane from the local Docker `IMAGE` (never pulled); its\nentrypoint must serve the protocol, on the host's network, with the TOOLCERT_* environment and the\naudit and policy folders mounted at their host paths (docs/containers.md). Where Ryuk's image cannot\nbe pulled, run toolcert with TESTCONTAINERS_RYUK_DISABLED=true")
	fs.StringVar(&t.mcpCmd, "target-mcp-cmd", "", "start an MCP server as a local process per lane: `\"CMD ARGS\"`, speaking JSON-RPC on its stdin and\nstdout (its stderr is kept for evidence), with the TOOLCERT_* environment (docs/protocol.md)")
	fs.StringVar(&t.mcpURL, "target-mcp-url", "", "use an MCP server already serving streamable HTTP at `URL` (e.g. http://127.0.0.1:8080/mcp; one lane)")
	fs.StringVar(&t.url, "target-url", "", "use an adapter already running at `URL`; it must use the mock at --upstream-listen (one lane)")
	fs.StringVar(&t.upstreamListen, "upstream-listen", "", "with --target-url: loopback `ADDR` (host:port) the mock upstream listens on")
	fs.StringVar(&t.auditFile, "audit-file", "", "with --target-url: `PATH` of the running adapter's audit log, so audit steps can read it")
	fs.StringVar(&t.profile, "profile", "", "JSON `FILE` declaring the target's limits (max_bytes, max_depth, max_attempts, deadline,\nread_timeout, freshness, future_skew, token, rename); default: the reference adapter's")
}

// words returns the flags as a command line repeats them, unquoted.
func (t *targetFlags) words() []string {
	var words []string
	for _, f := range [][2]string{{"target-cmd", t.cmd}, {"target-url", t.url}, {"target-image", t.image},
		{"target-mcp-cmd", t.mcpCmd}, {"target-mcp-url", t.mcpURL},
		{"upstream-listen", t.upstreamListen}, {"audit-file", t.auditFile}, {"profile", t.profile}} {
		if f[1] != "" {
			words = append(words, "--"+f[0], f[1])
		}
	}
	return words
}

// spec returns the target the flags name: at most one of --target-cmd,
// --target-url, --target-image, --target-mcp-cmd and --target-mcp-url.
func (t *targetFlags) spec(profile targets.Profile) (targets.Spec, error) {
	chosen := map[string]targets.Spec{
		"target-cmd":     {Kind: targets.KindV1Process, Command: t.cmd},
		"target-url":     {Kind: targets.KindV1URL, URL: t.url},
		"target-image":   {Kind: targets.KindV1Image, Image: t.image},
		"target-mcp-cmd": {Kind: targets.KindMCPStdio, Command: t.mcpCmd},
		"target-mcp-url": {Kind: targets.KindMCPHTTP, URL: t.mcpURL},
	}
	var names []string
	spec := targets.Spec{}
	for name, s := range chosen {
		if s.Command != "" || s.URL != "" || s.Image != "" {
			names, spec = append(names, "--"+name), s
		}
	}
	if len(names) > 1 {
		slices.Sort(names)
		return spec, usageErr("%s exclude each other", strings.Join(names, " and "))
	}
	spec.UpstreamListen, spec.AuditFile, spec.Rename = t.upstreamListen, t.auditFile, profile.Rename
	return spec, nil
}

// build returns the chosen target and its profile. Without a target flag
// the target is the reference adapter, in-process.
func (t *targetFlags) build() (targets.Target, targets.Profile, error) {
	profile, err := loadProfile(t.profile)
	if err != nil {
		return nil, profile, err
	}
	spec, err := t.spec(profile)
	if err != nil {
		return nil, profile, err
	}
	if spec.Kind == "" && (spec.UpstreamListen != "" || spec.AuditFile != "") {
		return nil, profile, usageErr("--upstream-listen and --audit-file go with --target-url or --target-mcp-url")
	}
	tgt, err := spec.Build()
	switch {
	case err != nil:
		return nil, profile, usageErr("%v", err)
	case tgt == nil:
		return reference.InProcess(), profile, nil
	}
	return tgt, profile, nil
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
