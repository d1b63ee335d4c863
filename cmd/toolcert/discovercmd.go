package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolcert/toolcert/internal/authoring/discover"
	"github.com/toolcert/toolcert/internal/authoring/openapi"
	"github.com/toolcert/toolcert/internal/runconfig"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
)

const discoverSynopsis = `Usage: toolcert discover (--openapi SPEC | --upstream URL | both)
         (--target-mcp-cmd "CMD ARGS" | --target-mcp-url URL | --config FILE)
         [--out DIR] [--tools NAMES] [--upstream-env NAMES] [--env NAME=VALUE]... [--profile FILE] [--force]

Learns what certifying every tool of an MCP server needs, and writes it
(docs/certify-every-tool.md). It starts the server once against a discovery
mock on 127.0.0.1 that answers every request from the upstream's OpenAPI
description (the matched operation's example, or an answer made from its
schema with every member), lists the server's tools, and calls each one
(read-only ones first; a tool whose annotations mark it destructive only
when --tools names it) with arguments made from its input schema and the
description's parameter examples. From the requests and the result it
learns, per tool: the operation it calls, which argument lands in which
path segment or query parameter, the routes the server asks besides, where
the result carries the data (structured content, a JSON text, prose), and
what of the answer the tool shows.

The server's upstream URL: write {{.UpstreamURL}} into the command where
the server takes it (a flag), or name its variable with --upstream-env;
otherwise discover sets the usual variables at once (TOOLCERT_UPSTREAM_URL,
API_URL, BASE_URL, NAME_API_URL... from the program's name and the
description's title, and names found in the program's bytes), each to a
port of its own, and says which one the server read.

It writes into --out:
  toolcert.yaml        the target, the variable that worked, a tool map per
                       tool (argument names and types, result, data)
  fixtures/TOOL/       each mapped tool's corpus, as fixtures import writes it,
                       narrowed to what the tool showed; open decisions in
                       tool.json's "decide"
  fixtures/routes.json the routes the server asked besides a tool's own
  features/            the built-in MCP scenarios, and every generated
                       variant of every mapped tool
  DISCOVERY.md         tools found, mapped, left out and why
Then: toolcert run --config DIR/toolcert.yaml (level safe).

With --upstream, a real upstream on loopback (a local instance of the API)
answers in the description's place: the mock forwards each request to it,
and each tool's schema is inferred from the answer it got (as fixtures
record infers one; each inference an open decision); only the tools
annotated read-only are called unless --tools names others. With
--openapi too, a request that matches an operation takes its route,
arguments and error answers from the description.

Nothing is sent off loopback: the server is pointed at the mock only, and
an --upstream off loopback is refused.

Exit codes: 0 written, at least one tool mapped; 1 written, no tool mapped;
2 usage error, an unreadable description, a server that does not start or
lists no tools, or --out holds a toolcert.yaml (--force).`

// discoverCmd runs toolcert discover.
func discoverCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := runconfig.DefaultFlags()
	fs := newFlags("discover", discoverSynopsis, stderr)
	var spec, upstream, out, tools, envNames, config string
	var force bool
	var env envFlag
	var callTimeout time.Duration
	fs.StringVar(&spec, "openapi", "", "the upstream's OpenAPI description `FILE` (YAML or JSON)")
	fs.StringVar(&upstream, "upstream", "", "a real upstream's base `URL` on loopback (http://127.0.0.1:8080) that answers in the description's place")
	fs.StringVar(&config, "config", "", "a target config `FILE` (docs/config.md) whose target and env to start the server with")
	fs.StringVar(&f.TargetMCPCmd, "target-mcp-cmd", "", "the MCP server to start, over stdio: `\"CMD ARGS\"` ({{.UpstreamURL}} in it is the mock's URL)")
	fs.StringVar(&f.TargetMCPURL, "target-mcp-url", "", "an MCP server already serving streamable HTTP at `URL`, started by you with its upstream at\n--upstream-listen (prefer --target-mcp-cmd, which discover starts itself)")
	fs.StringVar(&f.UpstreamListen, "upstream-listen", "", "with --target-mcp-url: the loopback `ADDR` (host:port) the discovery mock listens on, where the running\nserver sends its upstream requests")
	fs.StringVar(&out, "out", "discovered", "`DIR` to write toolcert.yaml, fixtures/, features/ and DISCOVERY.md into")
	fs.StringVar(&tools, "tools", "", "call only these tools, comma-separated `NAMES` (destructive ones too)")
	fs.StringVar(&envNames, "upstream-env", "", "the variable(s) the server reads its upstream URL from, comma-separated `NAMES`\n(default: try the usual ones)")
	fs.DurationVar(&callTimeout, "call-timeout", 15*time.Second, "how long each tool call may take, a Go `DURATION`")
	fs.DurationVar(&f.ReadyTimeout, "ready-timeout", 0, "how long the server may take to answer initialize, a Go `DURATION` (default 10s)")
	fs.Var(&env, "env", "a variable the server needs to start, `NAME=VALUE` (a token, a setting); repeat it for more.\nIt is written into toolcert.yaml's target env")
	fs.StringVar(&f.Profile, "profile", "", "the server's profile `FILE` (docs/profile.md: its byte, depth and attempt limits): copied into --out\nand named in toolcert.yaml; without one, the run holds the server to no byte limit at level safe")
	fs.BoolVar(&force, "force", false, "replace what --out holds")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if spec == "" && upstream == "" {
		return usageErr("discover: --openapi or --upstream is required")
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	r, err := loadRun(config, f, set)
	if err != nil {
		return err
	}
	if r.Target.Kind != targets.KindMCPStdio && r.Target.Kind != targets.KindMCPHTTP {
		return usageErr("discover: give an MCP server: --target-mcp-cmd, --target-mcp-url, or a --config whose target is mcp-stdio or mcp-http")
	}
	r.Target.ReadyTimeout = f.ReadyTimeout
	if len(env) > 0 && r.Target.Env == nil {
		r.Target.Env = map[string]string{}
	}
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		r.Target.Env[name] = value
	}
	target, err := r.Target.Build()
	if err != nil {
		return configErr(fmt.Errorf("discover: %w", err))
	}
	var desc *openapi.Description
	if spec != "" {
		if desc, err = loadDescription(spec); err != nil {
			return err
		}
	}
	exe := executableOf(r.Target)
	fmt.Fprintf(stderr, "toolcert discover: starting %s against the discovery mock\n", target)
	res, err := discover.Run(ctx, discover.Options{
		Target: target, Executable: exe, Description: desc, Upstream: upstream, Tools: splitList(tools), Env: splitList(envNames),
		Prefixes: prefixes(exe, desc), CallTimeout: callTimeout, Progress: stderr, UpstreamListen: r.Target.UpstreamListen,
	})
	if errors.Is(err, discover.ErrNotLoopback) {
		return usageErr("discover: %v", err)
	}
	if err != nil {
		return configErr(fmt.Errorf("discover: %w", err))
	}
	var profile []byte
	if f.Profile != "" {
		if _, err := loadProfile(f.Profile); err != nil {
			return err
		}
		if profile, err = os.ReadFile(f.Profile); err != nil {
			return configErr(fmt.Errorf("--profile: %w", err))
		}
	}
	w, err := discover.Write(res, discover.WriteOptions{Dir: out, Target: r.Target, Description: desc, DescriptionPath: spec, Upstream: upstream, Profile: profile, Force: force})
	if err != nil {
		if errors.Is(err, discover.ErrExists) {
			return usageErr("discover: %v", err)
		}
		return configErr(fmt.Errorf("discover: write: %w", err))
	}
	fmt.Fprintln(stdout, discover.Counts(res, w))
	fmt.Fprintln(stdout, discover.Wiring(res))
	if res.StartNote != "" {
		fmt.Fprintln(stdout, "Note: "+res.StartNote+".")
	}
	for name, why := range w.Failed {
		fmt.Fprintf(stdout, "  %s: mapped, but its corpus could not be written: %s\n", reports.Printable(name), reports.Printable(why))
	}
	if len(w.Tools) == 0 {
		fmt.Fprintf(stdout, "No tool mapped: wrote only %s, which says why each was left out.\n", filepath.Join(out, "DISCOVERY.md"))
		return &exitError{code: exitFail, err: errors.New("discover: no tool mapped")}
	}
	fmt.Fprintf(stdout, "Wrote %s (and fixtures/, features/, DISCOVERY.md beside it).\nThen: toolcert run --config %s\n", w.Config, w.Config)
	return nil
}

// envFlag is --env: NAME=VALUE, repeated.
type envFlag []string

func (e *envFlag) String() string { return strings.Join(*e, ",") }

func (e *envFlag) Set(v string) error {
	if name, _, ok := strings.Cut(v, "="); !ok || name == "" {
		return fmt.Errorf("want NAME=VALUE, got %q", v)
	}
	*e = append(*e, v)
	return nil
}

// loadDescription reads and loads an OpenAPI description.
func loadDescription(spec string) (*openapi.Description, error) {
	b, err := readDescription(spec)
	if err != nil {
		return nil, configErr(fmt.Errorf("--openapi: %w", err))
	}
	d, err := openapi.Load(b, openapi.Options{BaseDir: filepath.Dir(spec)})
	if err != nil {
		return nil, configErr(fmt.Errorf("%s: %w", spec, err))
	}
	return d, nil
}

// executableOf returns the program a started target runs, "" for one
// already running.
func executableOf(s targets.Spec) string {
	if len(s.Argv) > 0 {
		return programOf(s.Argv)
	}
	return programOf(strings.Fields(s.Command))
}

// programOf returns the program a command's words run: past an "env" and
// the NAME=VALUE words that set its environment.
func programOf(words []string) string {
	for i, w := range words {
		w = strings.Trim(w, `"'`)
		switch {
		case i == 0 && (w == "env" || strings.HasSuffix(w, "/env")):
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "-"):
		default:
			return w
		}
	}
	return ""
}

// prefixes are the names variables of the server may start with: its
// program's and its upstream's.
func prefixes(exe string, d *openapi.Description) []string {
	names := []string{filepath.Base(exe)}
	if d != nil {
		names = append(names, d.Title())
	}
	var out []string
	for _, name := range names {
		if p := discover.PrefixOf(name); p != "" {
			out = append(out, p)
		}
	}
	return out
}
