package mutant

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcert/toolcert/adapters/internal/pipeline"
	"github.com/toolcert/toolcert/adapters/mcpbridge"
	"github.com/toolcert/toolcert/targets"
)

// A style is not a mutant: it is the reference adapter served over MCP the
// way real MCP servers write their results (typed structs that drop what
// they do not declare, prose, YAML, omitempty, defaults of their own,
// timestamps rendered their own way), with the tool map its owner writes
// for it (docs/config.md). Every style keeps every protection, so level
// safe must pass each (docs/protocol.md, "Levels"); level strict passes
// each but typed, which reads past unknown members where protocol v1
// refuses them.

// style is one entry of the table of styles.
type style struct {
	describe string
	// options change the pipeline (nil: the reference's).
	options func(cfg pipeline.Config) []pipeline.Option
	// rewrite changes a successful tools/call result of tool (nil: none).
	rewrite func(tool string, res *mcp.CallToolResult)
	// listRewrite changes a tools/list result, given the instance's
	// upstream URL (nil: none).
	listRewrite func(upstream string, res *mcp.ListToolsResult)
	// toolMap is the tool map of every tool.
	toolMap targets.ToolMap
}

// styles returns the table of styles by name.
func styles() map[string]style {
	return map[string]style{
		"typed": {
			describe: "decodes the upstream's answer into typed structs: unknown members are dropped, every declared one checked",
			options: func(pipeline.Config) []pipeline.Option {
				return []pipeline.Option{pipeline.WithVendorSchemaTransform(openSchema)}
			},
		},
		"prose": {
			describe: "answers in one sentence of text, no structured content, no request id; a failure is a line naming its code",
			rewrite:  asText(prose), toolMap: targets.ToolMap{Result: targets.ResultText},
		},
		"yaml": {
			describe: "answers with the data as YAML in one text block, no structured content, no request id",
			rewrite:  asText(yamlText), toolMap: targets.ToolMap{Result: targets.ResultText},
		},
		"omitempty": {
			describe: "leaves out members whose value is zero (0, \"\", false), as Go's omitempty does",
			rewrite:  onData(omitZero), toolMap: targets.ToolMap{Compare: targets.Compare{OmitZero: true}},
		},
		"defaults": {
			describe: `adds a member of its own to every answer: "source": "toolcert-reference"`,
			rewrite:  onData(func(m map[string]any) { m["source"] = "toolcert-reference" }),
			toolMap:  targets.ToolMap{Compare: targets.Compare{Adds: []string{"/source"}}},
		},
		"configured": {
			describe: "writes the upstream it was configured with into every tool's description, as servers that show their settings do",
			listRewrite: func(upstream string, res *mcp.ListToolsResult) {
				for i, t := range res.Tools {
					c := *t // the server's own tool: a copy is changed
					c.Description += " (upstream: " + upstream + ")"
					res.Tools[i] = &c
				}
			},
		},
		"timestamps": {
			describe: "renders every timestamp again in UTC with milliseconds (.000Z), as a time.Time marshalled with its own layout",
			rewrite:  onData(rerenderTimes), toolMap: targets.ToolMap{Compare: targets.Compare{Instants: true}},
		},
	}
}

// Styles returns the names of the styles, sorted.
func Styles() []string {
	var names []string
	for n := range styles() {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// DescribeStyle returns one line on how the named style answers, or "" for
// an unknown name.
func DescribeStyle(name string) string { return styles()[name].describe }

// StyleToolMap returns the tool map the named style's owner writes for
// every tool of the reference (the tool's own name kept).
func StyleToolMap(name string) targets.ToolMap { return styles()[name].toolMap }

// InProcessStyle returns the reference served over MCP, in memory, in the
// named style.
func InProcessStyle(name string) (*targets.InProcessMCP, error) {
	st, ok := styles()[name]
	if !ok {
		return nil, fmt.Errorf("%w style %q: want one of %s", ErrUnknown, name, strings.Join(Styles(), ", "))
	}
	build := func(env targets.Env) (http.Handler, io.Closer, error) {
		cfg, err := pipeline.ConfigFromEnv(pipeline.EnvLookup(env))
		if err != nil {
			return nil, nil, err
		}
		var opts []pipeline.Option
		if st.options != nil {
			opts = st.options(cfg)
		}
		a, err := pipeline.New(cfg, opts...)
		if err != nil {
			return nil, nil, err
		}
		return a, a, nil
	}
	return targets.NewInProcessMCP("style "+name, func(env targets.Env) (*mcp.Server, io.Closer, error) {
		srv, closer, err := mcpbridge.InProcessBuild(build)(env)
		if err != nil {
			return nil, nil, err
		}
		if st.rewrite != nil {
			srv.AddReceivingMiddleware(rewriting(st.rewrite))
		}
		if st.listRewrite != nil {
			srv.AddReceivingMiddleware(listRewriting(env.UpstreamURL, st.listRewrite))
		}
		return srv, closer, nil
	}), nil
}

// listRewriting returns server middleware that passes every tools/list
// result to rewrite.
func listRewriting(upstream string, rewrite func(string, *mcp.ListToolsResult)) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.ListToolsResult); err == nil && ok && r != nil {
				rewrite(upstream, r)
			}
			return res, err
		}
	}
}

// rewriting returns server middleware that passes every tools/call result
// to rewrite.
func rewriting(rewrite func(tool string, res *mcp.CallToolResult)) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			r, isCall := res.(*mcp.CallToolResult)
			call, isReq := req.(*mcp.CallToolRequest)
			if err == nil && isCall && isReq && r != nil {
				rewrite(call.Params.Name, r)
			}
			return res, err
		}
	}
}

// data returns a result's structured content as an object, and false for
// a failure or a result without one.
func data(res *mcp.CallToolResult) (map[string]any, bool) {
	raw, ok := res.StructuredContent.(json.RawMessage)
	if res.IsError || !ok {
		return nil, false
	}
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if dec.Decode(&m) != nil {
		return nil, false
	}
	return m, true
}

// onData rewrites a success's data with edit, in the structured content
// and in its text block alike.
func onData(edit func(map[string]any)) func(string, *mcp.CallToolResult) {
	return func(_ string, res *mcp.CallToolResult) {
		m, ok := data(res)
		if !ok {
			return
		}
		edit(m)
		b, err := json.Marshal(m)
		if err != nil {
			return
		}
		res.StructuredContent = json.RawMessage(b)
		res.Content = []mcp.Content{&mcp.TextContent{Text: string(b)}}
	}
}

// asText replaces a result by one text block written by render (a
// failure by a line naming its code), without structured content or
// _meta.
func asText(render func(tool string, data map[string]any) string) func(string, *mcp.CallToolResult) {
	return func(tool string, res *mcp.CallToolResult) {
		text := fmt.Sprintf("%s failed: the upstream's answer could not be used", tool)
		if m, ok := data(res); ok {
			text = render(tool, m)
		} else if code := failureCode(res); code != "" {
			text = fmt.Sprintf("%s failed (%s)", tool, code)
		}
		res.Content = []mcp.Content{&mcp.TextContent{Text: text}}
		res.StructuredContent, res.Meta = nil, nil
	}
}

// failureCode returns the code of a failure's structured content, or "".
func failureCode(res *mcp.CallToolResult) string {
	raw, ok := res.StructuredContent.(json.RawMessage)
	if !ok {
		return ""
	}
	var f struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(raw, &f)
	return f.Error.Code
}

// prose writes data as one sentence: "tool: a is x; b.c is y.".
func prose(tool string, data map[string]any) string {
	var parts []string
	for _, kv := range flatten("", data) {
		parts = append(parts, kv[0]+" is "+kv[1])
	}
	return tool + ": " + strings.Join(parts, "; ") + "."
}

// yamlText writes data as YAML: a line per scalar, nested objects
// indented by two spaces.
func yamlText(_ string, data map[string]any) string {
	var b strings.Builder
	writeYAML(&b, data, "")
	return b.String()
}

// writeYAML writes m's members sorted by name at indent.
func writeYAML(b *strings.Builder, m map[string]any, indent string) {
	for _, k := range sortedKeys(m) {
		if sub, ok := m[k].(map[string]any); ok {
			fmt.Fprintf(b, "%s%s:\n", indent, k)
			writeYAML(b, sub, indent+"  ")
			continue
		}
		fmt.Fprintf(b, "%s%s: %s\n", indent, k, scalarText(m[k]))
	}
}

// flatten returns the scalars of m as dotted name and text pairs, sorted.
func flatten(prefix string, m map[string]any) [][2]string {
	var out [][2]string
	for _, k := range sortedKeys(m) {
		name := prefix + k
		if sub, ok := m[k].(map[string]any); ok {
			out = append(out, flatten(name+".", sub)...)
			continue
		}
		out = append(out, [2]string{name, scalarText(m[k])})
	}
	return out
}

// scalarText writes a scalar as text.
func scalarText(v any) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprint(v)
}

// sortedKeys returns m's keys, sorted.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// omitZero removes the members of m whose value is 0, "" or false.
func omitZero(m map[string]any) {
	for k, v := range m {
		switch x := v.(type) {
		case map[string]any:
			omitZero(x)
		case string:
			if x == "" {
				delete(m, k)
			}
		case bool:
			if !x {
				delete(m, k)
			}
		case json.Number:
			if f, err := x.Float64(); err == nil && f == 0 {
				delete(m, k)
			}
		}
	}
}

// rerenderTimes writes every RFC 3339 timestamp of m again in UTC with
// milliseconds.
func rerenderTimes(m map[string]any) {
	for k, v := range m {
		switch x := v.(type) {
		case map[string]any:
			rerenderTimes(x)
		case string:
			if t, err := time.Parse(time.RFC3339Nano, x); err == nil {
				m[k] = t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
			}
		}
	}
}
