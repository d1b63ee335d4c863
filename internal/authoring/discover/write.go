package discover

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/internal/authoring/openapi"
	"github.com/toolcert/toolcert/internal/authoring/scaffold"
	"github.com/toolcert/toolcert/targets"
)

// WriteOptions say where and how Write writes.
type WriteOptions struct {
	// Dir is the folder written: toolcert.yaml, fixtures/, features/ and
	// DISCOVERY.md.
	Dir string
	// Target is the server as the user named it; its env gets the
	// variables that worked.
	Target targets.Spec
	// Description and DescriptionPath are the upstream's description and
	// where it is, for the notes.
	Description     *openapi.Description
	DescriptionPath string
	// Upstream is the real upstream that answered, "" for none.
	Upstream string
	// Profile, when set, is the server's profile (docs/profile.md),
	// written as profile.json and named in toolcert.yaml.
	Profile []byte
	// Force replaces what is there.
	Force bool
	// Now is when, for the notes; zero is time.Now.
	Now time.Time
}

// Written is what Write wrote, and the tools it could not write.
type Written struct {
	// Config is toolcert.yaml's path.
	Config string
	// Tools are the tools written, each with the decisions left open.
	Tools []WrittenTool
	// Failed are the mapped tools whose corpus could not be written, with
	// why.
	Failed map[string]string
}

// WrittenTool is one tool's corpus folder.
type WrittenTool struct {
	Name    string
	Decide  int
	Problem []corpus.Problem
}

// ErrExists means the folder holds what Write would write.
var ErrExists = errors.New("already there")

// Write writes what r learnt: a corpus folder per mapped tool (through
// scaffold, as fixtures import writes one), the side routes, the built-in
// MCP scenarios and one scenario of generated variants per tool, the
// target config and DISCOVERY.md.
func Write(r *Result, opts WriteOptions) (*Written, error) {
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	config := filepath.Join(opts.Dir, "toolcert.yaml")
	if _, err := os.Stat(config); err == nil && !opts.Force {
		return nil, fmt.Errorf("%s: %w (--force replaces it)", config, ErrExists)
	}
	fixtures := filepath.Join(opts.Dir, "fixtures")
	if err := os.MkdirAll(fixtures, 0o755); err != nil {
		return nil, err
	}
	w := &Written{Config: config, Failed: map[string]string{}}
	var written []Tool
	for _, t := range r.Mapped() {
		res, err := writeTool(fixtures, t, opts)
		if err != nil {
			w.Failed[t.Name] = err.Error()
			continue
		}
		w.Tools = append(w.Tools, WrittenTool{Name: t.Name, Decide: len(res.Decide), Problem: res.Problems})
		written = append(written, t)
	}
	if len(written) == 0 {
		// nothing to run: no config that would only fail to load
		w.Config = ""
		return w, os.WriteFile(filepath.Join(opts.Dir, "DISCOVERY.md"), []byte(Summary(r, w, opts)), 0o644)
	}
	if err := writeSide(fixtures, r.Side); err != nil {
		return nil, err
	}
	if err := writeFeatures(filepath.Join(opts.Dir, "features"), written); err != nil {
		return nil, err
	}
	if len(opts.Profile) > 0 {
		if err := os.WriteFile(filepath.Join(opts.Dir, "profile.json"), opts.Profile, 0o644); err != nil {
			return nil, err
		}
	}
	if err := os.WriteFile(config, configText(r, written, opts), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(opts.Dir, "DISCOVERY.md"), []byte(Summary(r, w, opts)), 0o644); err != nil {
		return nil, err
	}
	return w, nil
}

// writeTool writes one tool's corpus folder: the operation's schema and
// error answers as fixtures import takes them, narrowed to what the tool
// showed, with the answer discovery served as its accepted answer.
func writeTool(root string, t Tool, opts WriteOptions) (*scaffold.Result, error) {
	m := t.Mapping
	if m.Primary.Answer.Real {
		st, err := recordedTool(t, opts)
		if err != nil {
			return nil, err
		}
		return scaffold.Write(root, st, scaffold.Options{Arguments: m.Values, Force: opts.Force})
	}
	op, err := opts.Description.Operation(openapi.Selector{Method: m.Primary.Op.Method, Path: m.Primary.Op.Path})
	if err != nil {
		return nil, err
	}
	source := fmt.Sprintf("%s, operation %s %s, learnt by toolcert discover on %s from what tool %s sent and showed",
		filepath.Base(opts.DescriptionPath), op.Method, op.Path, opts.Now.UTC().Format("2006-01-02"), t.Name)
	st, err := op.Tool(openapi.ToolOptions{Name: t.Name, Keep: keeps(m), DataName: m.View.DataName, Source: source})
	if err != nil {
		return nil, err
	}
	var notes []scaffold.Note
	for _, n := range st.Notes {
		if !strings.HasPrefix(n.Pointer, "example ") {
			notes = append(notes, n)
		}
	}
	how := "the description's example"
	if m.Primary.Answer.Made {
		how = "made from the description's schema, every member in it"
	}
	st.Notes = append(notes, scaffold.Note{Pointer: "accepted/discovered.json", Message: "the answer the discovery mock served the tool (" + how + "); what the tool did not show of it is the tool map's compare hidden in toolcert.yaml"})
	st.Examples = []scaffold.Example{{ID: "discovered", Body: m.Primary.Answer.Body, Arguments: m.Values}}
	st.Examples = append(st.Examples, otherExamples(op, t)...)
	st.Bind = bindings(m)
	return scaffold.Write(root, st, scaffold.Options{Arguments: m.Values, Force: opts.Force})
}

// otherExamples are the description's other examples of the answer, with
// the call's values in them, that hold every member the served answer
// has (or a null on its way): a member an example lacks may be one the
// tool shows as a zero value of its own, which no expectation could say.
func otherExamples(op *openapi.Operation, t Tool) []scaffold.Example {
	values := map[string]string{}
	for k, v := range t.Arguments.Text {
		values[k] = v
	}
	for k, v := range t.Mapping.Values {
		values[k] = v
	}
	xs, err := op.ExamplesWith(values)
	if err != nil {
		return nil
	}
	var served any
	if decode(t.Mapping.Primary.Answer.Body, &served) != nil {
		return nil
	}
	var out []scaffold.Example
	for _, x := range xs {
		var v any
		if decode(x.Value, &v) != nil || bytes.Equal(bytes.TrimSpace(x.Value), bytes.TrimSpace(t.Mapping.Primary.Answer.Body)) || !covers(served, v) {
			continue
		}
		out = append(out, scaffold.Example{ID: x.Name, Body: x.Value, Arguments: t.Mapping.Values})
	}
	return out
}

// covers reports whether b has every member a has, or a null where a has
// an object or a list; lists are compared by their first elements.
func covers(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return b == nil
		}
		for k, av := range x {
			bv, in := y[k]
			if !in || !covers(av, bv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok {
			return b == nil
		}
		if len(x) == 0 || len(y) == 0 {
			return true
		}
		return covers(x[0], y[0])
	}
	return true
}

// bindings are the members of an object answer named as a path parameter
// of the tool's route (letter case, "_" and "-" aside) that held the
// parameter's value: an answer with another value there is about another
// object than the one asked for.
func bindings(m *mapping) map[string]string {
	var a any
	if m.View.DataName != "" || m.View.AnswerAt != "" || decode(m.Primary.Answer.Body, &a) != nil {
		return nil
	}
	obj, ok := a.(map[string]any)
	if !ok {
		return nil
	}
	out := map[string]string{}
	for param, value := range m.Primary.Params {
		for _, k := range sortedKeys(obj) {
			if norm(k) != norm(param) {
				continue
			}
			if text, kind := textOf(obj[k]); (kind == "string" || kind == "integer") && text == value {
				out[pointer([]string{k})] = param
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// keeps are what the agent keeps of the answer: of an object the tool
// shows as it is, each member as a field of its name; of any other answer,
// the whole as the field the tool's data names. What the tool does not
// show of them is the tool map's compare hidden, not narrowed away: the
// accepted answer stays one the upstream could send, so a server that
// checks the answer against the upstream's schema takes it.
func keeps(m *mapping) []string {
	if m.View.AnswerAt != "" {
		return []string{m.View.AnswerAt}
	}
	var a any
	if m.View.DataName == "" && decode(m.Primary.Answer.Body, &a) == nil {
		if obj, ok := a.(map[string]any); ok {
			var out []string
			for _, k := range sortedKeys(obj) {
				out = append(out, pointer([]string{k}))
			}
			return out
		}
	}
	return []string{openapi.WholeAnswer}
}

// writeSide writes routes.json: the answers of the requests that are no
// tool's own, as the discovery mock gave them.
func writeSide(root string, side []request) error {
	path := filepath.Join(root, corpus.SideRoutesFile)
	if len(side) == 0 {
		return nil
	}
	var routes []corpus.SideRoute
	for _, r := range side {
		sr := corpus.SideRoute{Method: r.Method, Path: r.Path, Status: r.Answer.Status, Why: "asked by the server beside a tool's own request (toolcert discover)"}
		if r.Answer.ContentType != "" {
			sr.Headers = map[string]string{"Content-Type": r.Answer.ContentType}
		}
		if json.Valid(r.Answer.Body) {
			sr.Body = json.RawMessage(r.Answer.Body)
		} else {
			sr.Text = string(r.Answer.Body)
		}
		routes = append(routes, sr)
	}
	b, err := json.MarshalIndent(map[string]any{"routes": routes}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// writeFeatures writes the built-in MCP scenarios and one scenario of
// every generated variant per tool.
func writeFeatures(dir string, tools []Tool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	mcpFeature, err := fs.ReadFile(toolcert.Features(), "features/mcp_server.feature")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "mcp_server.feature"), mcpFeature, 0o644); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("Feature: every tool toolcert discover mapped\n")
	b.WriteString("  Written by toolcert discover: no scenario is written by hand. Every\n")
	b.WriteString("  accepted answer, every variant the generator derives from it and every\n")
	b.WriteString("  error answer the description declares is a case.\n")
	for _, t := range tools {
		fmt.Fprintf(&b, "\n  Scenario: every generated variant of %s\n", t.Name)
		fmt.Fprintf(&b, "    Then every generated variant of %q is handled as expected without leaking\n", t.Name)
	}
	return os.WriteFile(filepath.Join(dir, "discovered.feature"), []byte(b.String()), 0o644)
}

// configText is toolcert.yaml.
func configText(r *Result, tools []Tool, opts WriteOptions) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# toolcert.yaml: written by toolcert discover on %s from %s and %s.\n",
		opts.Now.UTC().Format("2006-01-02"), orUnknown(r.Server), sourceOf(opts))
	b.WriteString("# What it learnt and left out is in DISCOVERY.md; each tool's open\n")
	b.WriteString("# decisions are in its tool.json (\"decide\") until you make them.\n")
	b.WriteString("target:\n")
	s := opts.Target
	fmt.Fprintf(&b, "  kind: %s\n", s.Kind)
	switch {
	case len(s.Argv) > 0:
		fmt.Fprintf(&b, "  command: [%s]\n", strings.Join(quoteAll(s.Argv), ", "))
	case s.Command != "":
		fmt.Fprintf(&b, "  command: %s\n", quote(s.Command))
	}
	if s.URL != "" {
		fmt.Fprintf(&b, "  url: %s\n", quote(s.URL))
	}
	if s.Path != "" {
		fmt.Fprintf(&b, "  path: %s\n", quote(s.Path))
	}
	env := map[string]string{}
	for k, v := range s.Env {
		env[k] = v
	}
	var wired []string
	for _, v := range r.Wired {
		if v != "" {
			env[v] = "{{.UpstreamURL}}"
			wired = append(wired, v)
		}
	}
	if len(env) > 0 {
		b.WriteString("  env:\n")
		for _, k := range sortedKeys(env) {
			note := ""
			if slices.Contains(wired, k) {
				note = "   # the server read its upstream from it (discover)"
			}
			fmt.Fprintf(&b, "    %s: %s%s\n", k, quote(env[k]), note)
		}
	}
	if len(s.Rename) > 0 {
		b.WriteString("  rename:\n")
		for _, k := range sortedKeys(s.Rename) {
			fmt.Fprintf(&b, "    %s: %s\n", k, quote(s.Rename[k]))
		}
	}
	if len(tools) > 0 {
		b.WriteString("tools:\n")
	}
	for _, t := range tools {
		writeToolMap(&b, t)
	}
	b.WriteString("fixtures: fixtures\nfeatures: features\n")
	if len(opts.Profile) > 0 {
		b.WriteString("profile: profile.json         # the server's limits\n")
	}
	b.WriteString("level: safe                   # what every server owes the agent (docs/protocol.md, \"Levels\")\n")
	b.WriteString("allow-open-decisions: true    # the tools' decisions are open until you make them\n")
	return b.Bytes()
}

// writeToolMap writes one tool's entry of tools.
func writeToolMap(b *bytes.Buffer, t Tool) {
	m := t.Mapping
	fmt.Fprintf(b, "  %s:\n", t.Name)
	fmt.Fprintf(b, "    # %s\n", m.Primary.describe())
	fmt.Fprintf(b, "    arguments: %s\n", singleQuote(argumentsTemplate(t)))
	fmt.Fprintf(b, "    result: %s\n", m.View.Result)
	if m.View.Data != "" {
		fmt.Fprintf(b, "    data: %s\n", quote(m.View.Data))
	}
	if m.View.Wrap != "" {
		fmt.Fprintf(b, "    wrap: %s\n", quote(m.View.Wrap))
	}
	if m.View.Instants || len(m.View.Adds) > 0 || len(m.View.Hidden) > 0 {
		b.WriteString("    compare:\n")
		if m.View.Instants {
			b.WriteString("      instants: true\n")
		}
		if len(m.View.Adds) > 0 {
			fmt.Fprintf(b, "      adds: [%s]   # members the server shows of its own\n", strings.Join(quoteAll(m.View.Adds), ", "))
		}
		if len(m.View.Hidden) > 0 {
			fmt.Fprintf(b, "      hidden: [%s]   # members of the answer the server does not show\n", strings.Join(quoteAll(m.View.Hidden), ", "))
		}
	}
}

// identifier is a name a template may write as .name.
var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// argumentsTemplate is the tool map's arguments: each argument the tool
// was called with, from the corpus argument (the operation's parameter)
// whose value it carried, or as it was sent.
func argumentsTemplate(t Tool) string {
	byArg := map[string]string{}
	for p, a := range t.Mapping.Params {
		byArg[a] = p
	}
	var parts []string
	for _, a := range sortedKeys(t.Arguments.Values) {
		key, _ := json.Marshal(a)
		p, ok := byArg[a]
		var val string
		switch {
		case !ok:
			raw, _ := json.Marshal(t.Arguments.Values[a])
			val = string(raw)
		default:
			ref := "." + p
			if !identifier.MatchString(p) {
				ref = fmt.Sprintf("(index . %q)", p)
			}
			if t.Arguments.Types[a] == "string" {
				val = "{{json " + ref + "}}"
			} else {
				val = "{{" + ref + "}}"
			}
		}
		parts = append(parts, string(key)+": "+val)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// quote writes s as a YAML double-quoted scalar.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// singleQuote writes s as a YAML single-quoted scalar, which keeps a JSON
// template readable: only ' is doubled.
func singleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// quoteAll quotes each of list.
func quoteAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = quote(s)
	}
	return out
}

// sourceOf names where the answers came from.
func sourceOf(opts WriteOptions) string {
	var parts []string
	if opts.DescriptionPath != "" {
		parts = append(parts, filepath.Base(opts.DescriptionPath))
	}
	if opts.Upstream != "" {
		parts = append(parts, "the real upstream at "+opts.Upstream)
	}
	return strings.Join(parts, " and ")
}

// orUnknown names an unnamed server.
func orUnknown(s string) string {
	if s == "" {
		return "a server that gave no name"
	}
	return s
}
