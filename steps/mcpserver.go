package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
)

// mcpInstance returns the lane's MCP server, or a not-applicable error for
// a target of another kind.
func (w *world) mcpInstance() (targets.MCPInstance, error) {
	mi, ok := w.lane.Target.(targets.MCPInstance)
	if !ok {
		return nil, notApplicable("the target is not an MCP server")
	}
	return mi, nil
}

// stdoutClean checks that an MCP server on stdio wrote nothing on stdout
// but JSON-RPC messages since it started.
func (w *world) stdoutClean() error {
	mi, err := w.mcpInstance()
	if err != nil {
		return err
	}
	if mi.Transport() != targets.TransportStdio {
		return notApplicable("the server is reached over %s, which has no stdout", mi.Transport())
	}
	if noise := mi.Noise(); len(noise) > 0 {
		return w.note(reports.EvidenceTarget, "the server wrote %d line(s) on stdout that are not JSON-RPC, which the agent's client must read as protocol: %q", len(noise), noise)
	}
	return nil
}

// listTools asks the lane's server for its tools, as the agent does.
func (w *world) listTools(ctx context.Context) error {
	mi, err := w.mcpInstance()
	if err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, w.suite.Profile.CallTimeout())
	defer cancel()
	tools, err := mi.ListTools(cctx)
	if err != nil {
		return w.note(reports.EvidenceTarget, "tools/list failed: %v", err)
	}
	w.tools = tools
	return nil
}

// sameTools checks that the tools the scenario listed are those the first
// session of the run listed: the same names, descriptions and schemas.
func (w *world) sameTools() error {
	if _, err := w.mcpInstance(); err != nil {
		return err
	}
	if w.tools == nil {
		return fmt.Errorf("no tool list yet: a step such as `the agent lists the server's tools` comes first")
	}
	want, got := toolText(w.suite.FirstTools, w.suite.FirstUpstream), toolText(w.tools, w.lane.Upstream.URL())
	if diff := stableDiff(want, got); diff != "" {
		w.evidence = append(w.evidence, reports.Evidence{Kind: reports.EvidenceTarget,
			Message: "the server lists other tools in this session than in the run's first", Diff: diff})
		return fmt.Errorf("the tool list changed between sessions (-first +now):\n%s", diff)
	}
	return nil
}

// toolText is each tool as JSON, sorted by name, with the session's
// upstream address (its URL, its host and port) written as one word: the
// harness gives every session a mock of its own.
func toolText(tools []*mcp.Tool, upstream string) []string {
	out := make([]string, 0, len(tools))
	var replace []string
	if upstream != "" {
		replace = append(replace, upstream, "<the lane's upstream>", strings.TrimPrefix(upstream, "http://"), "<the lane's upstream>")
	}
	r := strings.NewReplacer(replace...)
	for _, t := range tools {
		b, _ := json.Marshal(t)
		out = append(out, r.Replace(string(b)))
	}
	slices.Sort(out)
	return out
}

// mcpTool returns the tool the corpus tool maps to on the server.
func (w *world) mcpTool(mi targets.MCPInstance, tool string) (*mcp.Tool, error) {
	name := w.suite.toolMap(tool).Name
	for _, t := range mi.Tools() {
		if t.Name == name {
			return t, nil
		}
	}
	return nil, w.note(reports.EvidenceTarget, "the server lists no tool %q, which the corpus tool %s maps to", name, tool)
}

// outputMet calls the probe's tool with its accepted answer: a declared
// outputSchema is met by the structured content, and every text block that
// is JSON says the same as the structured content.
func (w *world) outputMet(ctx context.Context, p probe) error {
	mi, err := w.mcpInstance()
	if err != nil {
		return err
	}
	tool, err := w.mcpTool(mi, p.tool.Name)
	if err != nil {
		return err
	}
	args, err := p.args(nil)
	if err != nil {
		return err
	}
	w.answer(p.tool.Request.Method, requestPath(p.tool, p.acc.Arguments), p.answer())
	if err := w.callTool(ctx, p.tool.Name, args); err != nil {
		return err
	}
	a := w.call.Out.Answer
	if a == nil || !a.Answered || a.Failed {
		return w.note(reports.EvidenceMismatch, "the tool failed on the corpus's accepted answer")
	}
	if err := w.meetsOutputSchema(tool, a.Structured); err != nil {
		return err
	}
	return w.textRepeats(a.Structured, a.Texts)
}

// meetsOutputSchema validates structured against the tool's outputSchema,
// when it declares one.
func (w *world) meetsOutputSchema(tool *mcp.Tool, structured []byte) error {
	if tool.OutputSchema == nil {
		return nil
	}
	raw, err := json.Marshal(tool.OutputSchema)
	if err != nil {
		return err
	}
	sch, err := judge.Compile(tool.Name+" outputSchema", raw)
	if err != nil {
		return w.note(reports.EvidenceTarget, "the outputSchema the server declares for %s does not compile: %v", tool.Name, err)
	}
	if structured == nil {
		return w.note(reports.EvidenceMismatch, "%s declares an outputSchema but its result has no structuredContent", tool.Name)
	}
	v, err := judge.ParseJSON(structured, agentLimits)
	if err != nil {
		return w.note(reports.EvidenceMismatch, "the structuredContent is not strict JSON: %v", err)
	}
	if err := sch.Validate(v); err != nil {
		return w.note(reports.EvidenceMismatch, "the structuredContent breaks the outputSchema %s declares: %s", tool.Name, oneLine(err))
	}
	return nil
}

// textRepeats checks that every text block holding JSON equals the
// structured content.
func (w *world) textRepeats(structured []byte, texts []string) error {
	if structured == nil {
		return nil
	}
	var want any
	if json.Unmarshal(structured, &want) != nil {
		return nil
	}
	for i, text := range texts {
		var got any
		if json.Unmarshal([]byte(text), &got) != nil {
			continue
		}
		if !reflect.DeepEqual(want, got) {
			return w.note(reports.EvidenceMismatch, "text block %d is JSON that says otherwise than the structuredContent", i)
		}
	}
	return nil
}

// inputSchema returns the schema the target declares for the probe's
// tool: an MCP tool's inputSchema, or the corpus's argument schema for a
// protocol v1 adapter.
func (w *world) inputSchema(p probe) (*judge.Schema, error) {
	raw := []byte(p.tool.Arguments)
	if mi, ok := w.lane.Target.(targets.MCPInstance); ok {
		tool, err := w.mcpTool(mi, p.tool.Name)
		if err != nil {
			return nil, err
		}
		if raw, err = json.Marshal(tool.InputSchema); err != nil {
			return nil, err
		}
	}
	sch, err := judge.Compile(p.tool.Name+" input schema", raw)
	if err != nil {
		return nil, w.note(reports.EvidenceTarget, "the input schema of %s does not compile: %v", p.tool.Name, err)
	}
	return sch, nil
}

// targetArguments returns the probe's arguments as the target takes them:
// the corpus's for protocol v1, rendered by the tool map on an MCP server.
func (w *world) targetArguments(p probe) (map[string]any, error) {
	args, err := p.args(nil)
	if err != nil {
		return nil, err
	}
	if _, ok := w.lane.Target.(targets.MCPInstance); ok {
		if args, err = w.suite.toolMap(p.tool.Name).RenderArguments(args); err != nil {
			return nil, w.note(reports.EvidenceTarget, "the tool map of %s: %v", p.tool.Name, err)
		}
	}
	var m map[string]any
	if err := json.Unmarshal(args, &m); err != nil {
		return nil, fmt.Errorf("the arguments of %s: %w", p.tool.Name, err)
	}
	return m, nil
}

// sendAsIs calls the probe's tool with raw, arguments in the target's own
// shape: on an MCP server the mapped tool, past the tool map; on a
// protocol v1 adapter the tool itself.
func (w *world) sendAsIs(ctx context.Context, p probe, raw []byte) error {
	if _, ok := w.lane.Target.(targets.MCPInstance); !ok {
		return w.callTool(ctx, p.tool.Name, raw)
	}
	name := w.suite.toolMap(p.tool.Name).Name
	return w.send(ctx, p.tool.Name, raw, func(ctx context.Context, inst targets.Instance) (harness.Output, error) {
		call, err := inst.(targets.MCPInstance).CallTool(ctx, name, raw, harness.TokenMeta(w.token()))
		if call == nil {
			return harness.Output{}, err
		}
		return harness.MCPOutput(call), err
	})
}

// refusedReachNothing calls the probe's tool with every change of its
// arguments (in the target's own shape) that its declared schema refuses:
// none reaches the upstream.
func (w *world) refusedReachNothing(ctx context.Context, p probe) error {
	sch, err := w.inputSchema(p)
	if err != nil {
		return err
	}
	args, err := w.targetArguments(p)
	if err != nil {
		return err
	}
	refused := refusedArguments(sch, args)
	for _, raw := range refused {
		w.lane.Upstream.Reset()
		if err := w.sendAsIs(ctx, p, raw); err != nil {
			return err
		}
		if n := w.requests(); n > 0 {
			return w.note(reports.EvidenceJournal, "the arguments %.200s, which the declared input schema refuses, sent %d request(s) upstream", raw, n)
		}
	}
	w.tried += len(refused)
	return nil
}

// refusedArguments returns the arguments, changed from args, that the
// schema refuses: each string as a number, each number as a string, an
// unknown argument, each argument left out.
func refusedArguments(sch *judge.Schema, args map[string]any) [][]byte {
	var out [][]byte
	try := func(change map[string]any) {
		m := make(map[string]any, len(args)+1)
		for k, v := range args {
			m[k] = v
		}
		for k, v := range change {
			if v == nil {
				delete(m, k)
			} else {
				m[k] = v
			}
		}
		raw, err := json.Marshal(m)
		if err != nil {
			return
		}
		v, err := judge.ParseJSON(raw, agentLimits)
		if err == nil && sch.Validate(v) != nil {
			out = append(out, raw)
		}
	}
	names := slices.Sorted(maps.Keys(args))
	for _, name := range names {
		switch args[name].(type) {
		case string:
			try(map[string]any{name: 12345})
		case float64:
			try(map[string]any{name: "x"})
		}
	}
	try(map[string]any{"toolcert_unexpected": "x"})
	for _, name := range names {
		try(map[string]any{name: nil})
	}
	return out
}

// mcpServerSteps registers the steps of scenarios that hold for any MCP
// server (features/mcp_server.feature), and for any tool of the corpus.
func mcpServerSteps(r *registrar) {
	r.act(`^the agent lists the server's tools$`, func(ctx context.Context) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.listTools(ctx)
	})
	r.assert(`^the server wrote nothing but JSON-RPC messages on stdout$`, on((*world).stdoutClean))
	r.assert(`^the tools are those the server listed in the run's first session$`, on((*world).sameTools))
	r.assert(`^every tool's answer to an accepted upstream answer meets the output schema the server declares$`, func(ctx context.Context) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		if _, err := w.mcpInstance(); err != nil {
			return err
		}
		return w.everyTool(ctx, func(ctx context.Context, child *world, p probe) error { return child.outputMet(ctx, p) })
	})
	r.assert(`^every tool called with arguments its input schema refuses sends nothing upstream$`, func(ctx context.Context) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		err = w.everyTool(ctx, func(ctx context.Context, child *world, p probe) error {
			err := child.refusedReachNothing(ctx, p)
			w.tried += child.tried
			return err
		})
		if err == nil && w.tried == 0 {
			return notApplicable("no tool's input schema refuses any of the arguments tried (a number for a string, an unknown argument, one left out)")
		}
		return err
	})
	r.assert(`^every tool's string arguments, made hostile, are refused or stay on the tool's route$`, func(ctx context.Context) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.everyTool(ctx, func(ctx context.Context, child *world, p probe) error { return child.hostileRoute(ctx, p) })
	})
	r.assert(`^every tool fails on `+hostileAnswerPattern()+` without leaking, within the attempt budget$`, func(ctx context.Context, kind string) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.everyTool(ctx, func(ctx context.Context, child *world, p probe) error { return child.refusesAnswer(ctx, p, kind) })
	})
}

// hostileAnswerPattern is the alternation of hostileAnswers' names.
func hostileAnswerPattern() string {
	names := make([]string, 0, 4)
	for name := range hostileAnswers("") {
		names = append(names, name)
	}
	slices.Sort(names)
	return "(" + strings.Join(names, "|") + ")"
}

// outcomeFailure is the outcome of a failed call.
const outcomeFailure = protocol.OutcomeFailure
