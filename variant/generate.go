package variant

import (
	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"

	"bytes"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/toolcert/toolcert/corpus"
)

// Generate returns every variant of the corpus that opts select, in a fixed
// order: tools sorted by name, then each tool's accepted examples in the
// order of cases.json, each of their versions, then operators sorted by
// name. The same corpus and Options always give the same variants, byte
// for byte.
func Generate(c *corpus.Corpus, opts Options) ([]Variant, error) {
	opts = opts.withDefaults()
	ops, err := selectOperators(opts.Operators)
	if err != nil {
		return nil, err
	}
	tools, err := selectTools(c, opts.Tools)
	if err != nil {
		return nil, err
	}
	var out []Variant
	seen := map[string]bool{}
	for _, name := range tools {
		vs, err := generateTool(c, name, opts, ops)
		if err != nil {
			return nil, fmt.Errorf("generate %s: %w", name, err)
		}
		for _, v := range vs {
			if seen[v.ID] {
				return nil, fmt.Errorf("generate %s: two variants named %s", name, v.ID)
			}
			seen[v.ID] = true
			if nearByteLimit(v, opts.MaxBytes) {
				continue // which limit rejects it first depends on rendering: do not guess
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// renderGrowth bounds how much one placeholder can grow when rendered
// (a canary or a timestamp is at most this many bytes longer than its
// placeholder, whichever way it goes).
const renderGrowth = 32

// nearByteLimit reports whether the rendered body of v may land on either
// side of the byte limit: its expectation would then depend on the
// rendering. Variants meant to cross the limit are never near it.
func nearByteLimit(v Variant, maxBytes int64) bool {
	if v.Expect.Reason == protocol.ReasonByteLimit {
		return false
	}
	slack := int64(renderGrowth * (bytes.Count(v.Body, []byte("{{")) + 1))
	return int64(len(v.Body))+slack > maxBytes
}

// Find returns the variant called id among those opts select (only the
// tool named by id's first segment is generated).
func Find(c *corpus.Corpus, opts Options, id string) (Variant, error) {
	tool, _, _ := strings.Cut(id, "/")
	if opts.Tools != nil && !slices.Contains(opts.Tools, tool) {
		return Variant{}, fmt.Errorf("find %s: %w", id, ErrNotFound)
	}
	opts.Tools = []string{tool}
	vs, err := Generate(c, opts)
	if err != nil {
		return Variant{}, fmt.Errorf("find %s: %w", id, err)
	}
	for _, v := range vs {
		if v.ID == id {
			return v, nil
		}
	}
	return Variant{}, fmt.Errorf("find %s: %w", id, ErrNotFound)
}

// selectTools returns the corpus's tools that names select (nil: all).
func selectTools(c *corpus.Corpus, names []string) ([]string, error) {
	all, err := c.Tools()
	if err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	if names == nil {
		return all, nil
	}
	var out []string
	for _, n := range names {
		if !slices.Contains(all, n) {
			return nil, fmt.Errorf("generate: %w %q", ErrUnknownTool, n)
		}
	}
	for _, n := range all {
		if slices.Contains(names, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// generateTool makes the variants of one tool.
func generateTool(c *corpus.Corpus, name string, opts Options, ops []operator) ([]Variant, error) {
	t, err := c.Tool(name)
	if err != nil {
		return nil, err
	}
	cs, err := c.Cases(name)
	if err != nil {
		return nil, err
	}
	var out []Variant
	for i, acc := range cs.Accepted {
		for j, version := range acc.Versions {
			x, err := newExample(c, t, acc, version, opts)
			if err != nil {
				return nil, err
			}
			x.first = i == 0 && j == 0
			for _, op := range ops {
				out = append(out, x.run(op)...)
			}
		}
	}
	if slices.ContainsFunc(ops, func(o operator) bool { return o.name == RejectOperator }) {
		rs, err := rejectVariants(t, cs, c)
		if err != nil {
			return nil, err
		}
		out = append(out, newAnswers(out, rs)...)
	}
	return out, nil
}

// run applies one operator to the example and turns its drafts into
// variants.
func (x *example) run(op operator) []Variant {
	f := op.json
	if x.tool.Format == corpus.FormatKeyValue {
		f = op.kv
	}
	if f == nil {
		return nil
	}
	x.op = op.name
	var out []Variant
	for _, d := range f(x) {
		if v, ok := x.variant(op.name, d); ok {
			out = append(out, v)
		}
	}
	return out
}

// variant completes a draft, or drops it when it is a rejection that
// plants no canary (but for the body "null", which has no room for one).
func (x *example) variant(op string, d draft) (Variant, bool) {
	if d.expect.Outcome == protocol.OutcomeFailure && !bytes.Contains(d.body, []byte(canaryOpen)) && !((op == "null_for_object" || op == "null_for_array") && d.field == "") {
		return Variant{}, false
	}
	id := x.tool.Name + "/" + x.name + "/" + op
	switch {
	case x.tool.Format == corpus.FormatKeyValue && d.field != "":
		id += "/" + judge.EscapePointerToken(d.field)
	default:
		id += d.field
	}
	if d.tag != "" {
		id += "#" + d.tag
	}
	v := Variant{
		ID: id, Tool: x.tool.Name, Example: x.acc.ID, Operator: op, Version: x.version,
		Field: d.field, Note: d.note, Status: d.status, ContentType: x.contentType,
		Body: slices.Clone(d.body), Arguments: maps.Clone(x.acc.Arguments), Expect: d.expect,
	}
	v.Expect.Data = slices.Clone(v.Expect.Data) // no two variants share memory
	v.Kind = x.kindOf(op, d)
	if v.Mark = d.mark; v.Mark == "" && bytes.Contains(d.body, []byte(markPlaceholder)) {
		v.Mark = x.findMark(d.body)
	}
	v.Expect.Alternatives = x.alternatives(op, v.Expect)
	if v.Status == 0 {
		v.Status = http.StatusOK
	}
	if d.contentType != nil {
		v.ContentType = *d.contentType
	}
	return v, true
}

// alternatives returns the failures the decision table allows instead of
// e for class op on this example's tool: its Also verdicts, but e's own.
func (x *example) alternatives(op string, e Expect) []Expect {
	class, ok := protocol.ClassOf(op, x.tool.Format)
	if !ok {
		return nil
	}
	var out []Expect
	for _, also := range class.Also {
		if also.Gate != protocol.Gate(e.Gate) || also.Reason != e.Reason {
			out = append(out, rejected(also.Gate, also.Reason))
		}
	}
	return out
}
