package discover

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/internal/authoring/openapi"
	"github.com/toolcert/toolcert/internal/authoring/record"
	"github.com/toolcert/toolcert/internal/authoring/scaffold"
)

// recordedTool is the corpus tool of an answer a real upstream gave: its
// schema inferred from the answer (as fixtures record infers one), each
// inference a decision; the route, the arguments and the error answers
// from the description's operation when the request matched one, else
// the route learnt from the request.
func recordedTool(t Tool, opts WriteOptions) (scaffold.Tool, error) {
	m := t.Mapping
	schema, inferred, err := record.Infer([][]byte{m.Primary.Answer.Body}, record.InferOptions{})
	if err != nil {
		return scaffold.Tool{}, fmt.Errorf("the real upstream's answer to %s: %w", m.Primary.describe(), err)
	}
	source := fmt.Sprintf("the real upstream's answer to %s, recorded by toolcert discover on %s from what tool %s sent and showed",
		m.Primary.Method+" "+m.Primary.Path, opts.Now.UTC().Format("2006-01-02"), t.Name)
	st := scaffold.Tool{Name: t.Name, Method: m.Method, Path: m.Template, ContentType: contentTypeOf(m.Primary.Answer.ContentType), Source: source,
		Description: fmt.Sprintf("Learnt by toolcert discover from tool %s and a real upstream.", t.Name)}
	if opts.Description != nil && m.FromDescription {
		op, err := opts.Description.Operation(openapi.Selector{Method: m.Primary.Op.Method, Path: m.Primary.Op.Path})
		if err == nil {
			if from, err := op.Tool(openapi.ToolOptions{Name: t.Name, Keep: keeps(m), DataName: m.View.DataName}); err == nil {
				st.Arguments, st.Errors, st.Description = from.Arguments, from.Errors, from.Description
				if opts.DescriptionPath != "" {
					st.Source += ", route and arguments from " + filepath.Base(opts.DescriptionPath)
				}
			}
		}
	}
	if st.Arguments == nil {
		for _, name := range sortedKeys(m.Primary.Params) {
			st.Arguments = append(st.Arguments, scaffold.Argument{Name: name, In: "path", Required: true, Schema: []byte(`{"type": "string"}`)})
		}
		for _, q := range m.Query {
			st.Arguments = append(st.Arguments, scaffold.Argument{Name: q, In: "query", Schema: []byte(`{"type": "string"}`)})
		}
	}
	st.Schema = schema
	for _, in := range inferred {
		st.Decide = append(st.Decide, corpus.Decision{File: "upstream/v1.schema.json", Pointer: in.Pointer, Decide: "inferred from one answer: " + in.What})
	}
	st.Keep, st.DataName = keeps(m), m.View.DataName
	for i, k := range st.Keep {
		if k == openapi.WholeAnswer {
			st.Keep[i] = "" // scaffold's whole answer
		}
	}
	st.Examples = []scaffold.Example{{ID: "discovered", Body: m.Primary.Answer.Body, Arguments: m.Values}}
	return st, nil
}

// contentTypeOf returns a media type without its parameters, JSON when
// none.
func contentTypeOf(ct string) string {
	mt, _, _ := strings.Cut(ct, ";")
	if mt = strings.TrimSpace(mt); mt == "" {
		return "application/json"
	}
	return mt
}
