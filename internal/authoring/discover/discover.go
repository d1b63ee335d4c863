// Package discover learns, from an MCP server and its upstream's OpenAPI
// description, what a certification needs of every tool: it starts the
// server against a discovery mock that answers from the description, calls
// each tool with arguments made from its input schema, and reads from the
// requests the mock received which operation the tool calls and where each
// argument lands, and from the result where the tool shows the answer and
// what of it. Write then turns what was learnt into a target config, a
// corpus folder per tool (through scaffold, as fixtures import does), side
// routes and features (toolcert discover, docs/certify-every-tool.md).
package discover

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcert/toolcert/internal/authoring/openapi"
	"github.com/toolcert/toolcert/targets"
)

// Options say what to discover.
type Options struct {
	// Target is the MCP server, started once.
	Target targets.Target
	// Executable is the server's program, whose bytes are searched for the
	// names of variables it may read its upstream from; "" for none.
	Executable string
	// Description is the upstream's OpenAPI description; nil with
	// Upstream.
	Description *openapi.Description
	// Upstream, when set, is a real upstream's base URL (on loopback)
	// that answers in the description's place; only the tools annotated
	// read-only are then called, unless Tools names others.
	Upstream string
	// Tools, when set, are the only tools called, destructive ones too.
	Tools []string
	// Env, when set, are the only variables tried for the upstream's URL;
	// otherwise the usual ones.
	Env []string
	// Prefixes make more variable names to try (PREFIX_API_URL...).
	Prefixes []string
	// UpstreamListen, when set, is the loopback address the mock's own URL
	// listens on: where a server already running sends its requests.
	UpstreamListen string
	// CallTimeout bounds each tool call; 0 is 15 s.
	CallTimeout time.Duration
	// Progress, when set, gets a line per tool.
	Progress io.Writer
}

// Result is what discovery learnt.
type Result struct {
	// Server is what the server said of itself.
	Server string
	// Tools are every tool the server listed, in its order.
	Tools []Tool
	// Wired are the variables through which requests reached the mock; ""
	// is the lane's own URL (TOOLCERT_UPSTREAM_URL, or the command or the
	// config's env naming {{.UpstreamURL}}).
	Wired []string
	// Side are the requests that are no tool's own: asked at start, or
	// beside a tool's own request.
	Side []request
	// StartNote says, when the server started only with fewer variables
	// set, what happened; "" otherwise.
	StartNote string
}

// Tool is one tool of the server and what became of it.
type Tool struct {
	Name        string
	ReadOnly    bool
	Destructive bool
	// Called says discovery called it.
	Called bool
	// LeftOut says why it has no corpus, "" when it is mapped.
	LeftOut string
	// Arguments are what it was called with.
	Arguments callArguments
	// Requests are the requests its call sent.
	Requests []request
	// Mapping is what its call taught, nil when left out.
	Mapping *mapping
}

// Mapped returns the tools that have a mapping.
func (r *Result) Mapped() []Tool {
	var out []Tool
	for _, t := range r.Tools {
		if t.Mapping != nil {
			out = append(out, t)
		}
	}
	return out
}

// ErrNoTools means the server listed no tool.
var ErrNoTools = errors.New("the server lists no tools")

// Run starts the server against the discovery mock, calls its tools and
// learns each one's mapping. An error means nothing was learnt: the
// server did not start, is no MCP server, or lists no tool.
func Run(ctx context.Context, opts Options) (*Result, error) {
	var real *forwarder
	switch {
	case opts.Upstream != "":
		base, err := checkLoopback(opts.Upstream)
		if err != nil {
			return nil, err
		}
		real = newForwarder(base)
	case opts.Description == nil:
		return nil, errors.New("discover: give an OpenAPI description, a real upstream, or both")
	}
	names := candidateNames(opts.Env, opts.Prefixes, opts.Executable)
	u, err := newUpstream(opts.Description, real, append([]string{""}, names...), opts.UpstreamListen)
	if err != nil {
		return nil, err
	}
	defer u.close()
	dir, err := os.MkdirTemp("", "toolcert-discover-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	res := &Result{}
	inst, err := start(ctx, opts, u, dir, names, res)
	if err != nil {
		return nil, err
	}
	defer func() {
		stop, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = inst.Stop(stop)
	}()
	mi, ok := inst.(targets.MCPInstance)
	if !ok {
		return nil, errors.New("the target is not an MCP server")
	}
	listed := mi.Tools()
	if len(listed) == 0 {
		return nil, ErrNoTools
	}
	if s := mi.Server(); s != nil {
		res.Server = line(s.Name + " " + s.Version)
	}
	hints := map[string]string{}
	if opts.Description != nil {
		hints = parameterHints(opts.Description)
	}
	side := map[string]request{}
	for _, r := range u.since(0) {
		side[r.key()] = r
	}
	for _, t := range listed {
		res.Tools = append(res.Tools, Tool{Name: t.Name, ReadOnly: readOnly(t), Destructive: destructive(t)})
	}
	for _, i := range callOrder(res.Tools) {
		t := &res.Tools[i]
		if why := skip(*t, opts.Tools, real != nil); why != "" {
			t.LeftOut = why
			continue
		}
		discoverTool(ctx, mi, u, listed[i], t, hints, opts.CallTimeout)
		if opts.Progress != nil {
			fmt.Fprintln(opts.Progress, progressLine(*t))
		}
		if t.Mapping == nil {
			continue
		}
		for _, r := range t.Requests {
			if r.key() != t.Mapping.Primary.key() {
				side[r.key()] = r
			}
		}
	}
	// A request one tool sends beside its own may be another tool's own
	// (a tool that reads a package, then its latest version): it is a side
	// route all the same, and a scenario of the other tool programs it over.
	for _, k := range sortedKeys(side) {
		if r := side[k]; r.Method == "GET" && r.Answer.Status >= 200 && r.Answer.Status < 300 {
			res.Side = append(res.Side, r)
		}
	}
	res.Wired = u.wired()
	return res, nil
}

// start starts the server with every candidate variable set, each to its
// own port of the mock. A server may read one of them as a setting of its
// own and fail to start: then it is started with fewer (the names made
// from the program's and the description's names and the usual ones, not
// those found in its bytes), then with none but the lane's URL, and
// res.StartNote says so.
func start(ctx context.Context, opts Options, u *upstream, dir string, names []string, res *Result) (targets.Instance, error) {
	sets := [][]string{names}
	if len(opts.Env) == 0 {
		sets = append(sets, candidateNames(nil, opts.Prefixes, ""), nil)
	}
	var first error
	for i, set := range sets {
		extra := map[string]string{}
		for _, n := range set {
			extra[n] = u.url(n)
		}
		inst, err := opts.Target.Start(ctx, targets.Env{UpstreamURL: u.url(""), Dir: dir, Extra: extra})
		if err == nil {
			if i > 0 {
				res.StartNote = fmt.Sprintf("the server did not start with the %d usual variables set (%s); it started with %d: a variable it reads as a setting of its own may be among those left out", len(names), clip(first.Error(), 300), len(set))
			}
			return inst, nil
		}
		if first == nil {
			first = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, fmt.Errorf("the server did not start: %w", first)
}

// discoverTool calls one tool and learns its mapping into t.
func discoverTool(ctx context.Context, mi targets.MCPInstance, u *upstream, tool *mcp.Tool, t *Tool, hints map[string]string, timeout time.Duration) {
	if timeout <= 0 {
		timeout = 15 * time.Second
	}
	args, err := argumentsFor(tool.InputSchema, hints)
	if err != nil {
		t.LeftOut = "its arguments could not be made: " + err.Error()
		return
	}
	call, err := callOnce(ctx, mi, u, t, args, timeout)
	if err == nil && (call.RPCError != nil || call.Result != nil && call.Result.IsError) && len(t.Requests) == 0 {
		// refused before any request (an error result, or a JSON-RPC
		// error): try again with the required
		// arguments alone, in case an optional one's made-up value is what
		// it refused
		if req, rerr := argumentsFor(tool.InputSchema, nil); rerr == nil && len(req.Values) < len(args.Values) {
			if c2, err2 := callOnce(ctx, mi, u, t, req, timeout); err2 == nil && len(t.Requests) > 0 {
				call, args = c2, req
			}
		}
	}
	t.Arguments = args
	switch {
	case err != nil:
		t.LeftOut = "its call failed: " + err.Error()
		return
	case call.RPCError != nil:
		t.LeftOut = "its call was refused: " + call.RPCError.Message
		return
	case call.Result == nil:
		t.LeftOut = "its call got no result"
		return
	}
	m, err := learn(args, t.Requests, call.Result, t.ReadOnly)
	if err != nil {
		t.LeftOut = err.Error()
		return
	}
	t.Mapping = m
}

// callOnce calls the tool with args, the mock filling their values into
// the answers' members of the same names, and keeps the requests it sent.
func callOnce(ctx context.Context, mi targets.MCPInstance, u *upstream, t *Tool, args callArguments, timeout time.Duration) (*targets.MCPCall, error) {
	raw, _ := json.Marshal(args.Values)
	u.setValues(args.Text)
	defer u.setValues(nil)
	mark := u.mark()
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	call, err := mi.CallTool(cctx, t.Name, raw, nil)
	t.Called = true
	t.Requests = u.since(mark)
	return call, err
}

// readOnly reports whether a tool's annotations say it only reads.
func readOnly(t *mcp.Tool) bool { return t.Annotations != nil && t.Annotations.ReadOnlyHint }

// destructive reports whether a tool's annotations mark it destructive:
// destructiveHint true, or a tool annotated as not read-only without
// destructiveHint, which the MCP specification then takes as true.
func destructive(t *mcp.Tool) bool {
	a := t.Annotations
	if a == nil || a.ReadOnlyHint {
		return false
	}
	return a.DestructiveHint == nil || *a.DestructiveHint
}

// callOrder returns the indexes of tools, read-only ones first.
func callOrder(tools []Tool) []int {
	idx := make([]int, len(tools))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case tools[a].ReadOnly == tools[b].ReadOnly:
			return 0
		case tools[a].ReadOnly:
			return -1
		}
		return 1
	})
	return idx
}

// skip says why a tool is not called: another was named; or, with none
// named, it is marked destructive, or it is not marked read-only and the
// answers come from a real upstream.
func skip(t Tool, named []string, real bool) string {
	switch {
	case len(named) > 0 && !slices.Contains(named, t.Name):
		return "not named in --tools"
	case len(named) > 0:
		return ""
	case t.Destructive:
		return "its annotations mark it destructive (name it in --tools to call it against the discovery mock)"
	case real && !t.ReadOnly:
		return "it is not annotated read-only, and the answers come from a real upstream (name it in --tools to call it)"
	}
	return ""
}

// progressLine says, in one line, what became of a tool.
func progressLine(t Tool) string {
	if t.Mapping == nil {
		return fmt.Sprintf("  %-32s left out: %s", line(t.Name), line(t.LeftOut))
	}
	return fmt.Sprintf("  %-32s %s", line(t.Name), t.Mapping.Primary.describe())
}

// parameterHints returns, by norm of their name, the description's
// parameters and a value each may take ("" for none): its example, else
// its schema's first enum value, default, or minimum.
func parameterHints(d *openapi.Description) map[string]string {
	hints := map[string]string{}
	for _, sel := range d.Operations() {
		op, err := d.Operation(openapi.Selector{Method: sel.Method, Path: sel.Path})
		if err != nil {
			continue
		}
		for _, p := range op.Parameters {
			if hints[norm(p.Name)] != "" {
				continue
			}
			hints[norm(p.Name)] = parameterValue(p)
		}
	}
	return hints
}

// parameterValue returns a value a parameter takes, "" when it says none.
func parameterValue(p openapi.Parameter) string {
	var cands []any
	var v any
	if len(p.Example) > 0 && json.Unmarshal(p.Example, &v) == nil {
		cands = append(cands, v)
	}
	var s map[string]any
	if json.Unmarshal(p.Schema, &s) == nil {
		if e, ok := s["enum"].([]any); ok && len(e) > 0 {
			cands = append(cands, e[0])
		}
		cands = append(cands, s["default"], s["minimum"])
	}
	for _, c := range cands {
		if c == nil {
			continue
		}
		if text, kind := textOf(c); kind != "object" && kind != "array" && kind != "null" && text != "" {
			return text
		}
	}
	return ""
}
