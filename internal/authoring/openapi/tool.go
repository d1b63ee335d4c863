package openapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolcert/toolcert/internal/authoring/scaffold"
	"github.com/toolcert/toolcert/internal/judge"
)

// ToolOptions are the owner's choices for the tool an operation becomes.
type ToolOptions struct {
	// Name is the tool's name.
	Name string
	// Keep are the pointers of what the agent keeps of a success
	// (scaffold.Tool.Keep), each plain ("/user/login") or in its URI
	// fragment form ("#/user/login"); WholeAnswer ("#") keeps the whole
	// answer. At least one.
	Keep []string
	// Status is the status of the success to import; "" is "200", or the
	// first 2xx with a JSON body.
	Status string
	// DataName names the agent's field for the whole answer or a list
	// (scaffold.Tool.DataName).
	DataName string
	// Version names the upstream version; "" is "v1".
	Version string
	// Source says where the description came from, for NOTES.md.
	Source string
}

// ErrNoKeep means the options keep nothing; the error lists what the
// success has to keep.
var ErrNoKeep = errors.New("no member kept")

// Tool returns the corpus tool of op: its route and arguments, the
// success's schema and examples (a minimal one made from the schema when
// none of the description's is valid), its error answers, and every
// note of what could not be carried over.
func (op *Operation) Tool(opts ToolOptions) (scaffold.Tool, error) {
	ok, err := op.success(opts.Status)
	if err != nil {
		return scaffold.Tool{}, err
	}
	if len(opts.Keep) == 0 {
		return scaffold.Tool{}, fmt.Errorf("%w: name what the agent keeps of the %s answer with --keep; %s",
			ErrNoKeep, ok.Status, keepCandidates(ok.Schema))
	}
	keep, keepTokens, err := keepPointers(opts.Keep)
	if err != nil {
		return scaffold.Tool{}, err
	}
	t := scaffold.Tool{
		Name: opts.Name, Description: op.describe(), Method: op.Method, Path: op.Path,
		ContentType: ok.MediaType, Version: opts.Version, Schema: ok.Schema,
		Keep: keep, DataName: opts.DataName, Source: opts.Source,
	}
	for _, p := range op.Parameters {
		t.Arguments = append(t.Arguments, scaffold.Argument{Name: p.Name, In: p.In, Required: p.Required, Schema: p.Schema, Example: p.Example})
	}
	for _, n := range op.Notes {
		t.Notes = append(t.Notes, scaffold.Note(n))
	}
	if t.Examples, err = op.examples(ok, keepTokens, &t.Notes); err != nil {
		return scaffold.Tool{}, err
	}
	t.Errors = op.errorAnswers(&t.Notes)
	return t, nil
}

// success returns the response to import: of status, or "200", or the
// first 2xx with a JSON body.
func (op *Operation) success(status string) (Response, error) {
	var statuses []string
	for _, r := range op.Responses {
		statuses = append(statuses, r.Status)
		switch {
		case status != "" && r.Status != status:
		case r.Schema == nil:
			if status != "" {
				return Response{}, fmt.Errorf("%s %s: the %s answer has no JSON body schema", op.Method, op.Path, status)
			}
		case status != "" || r.Status == "200" || strings.HasPrefix(r.Status, "2"):
			return r, nil
		}
	}
	want := "2xx answer with a JSON body schema"
	if status != "" {
		want = status + " answer"
	}
	return Response{}, fmt.Errorf("%s %s declares no %s (it declares %s)", op.Method, op.Path, want, strings.Join(statuses, ", "))
}

// describe is the operation's one line for a person.
func (op *Operation) describe() string {
	if op.Summary != "" {
		return op.Summary
	}
	first, _, _ := strings.Cut(op.Description, "\n")
	return first
}

// examples returns the success's examples that its schema accepts, each
// refused one a note, or a minimal one made from the schema when none is
// accepted: with every member on the way to a kept pointer (keep, as
// tokens), since the corpus projects a member only from an answer that
// has it.
func (op *Operation) examples(r Response, keep [][]string, notes *[]scaffold.Note) ([]scaffold.Example, error) {
	schema, err := judge.Compile(op.Method+" "+op.Path+" "+r.Status, r.Schema)
	if err != nil {
		return nil, fmt.Errorf("the %s answer's schema: %w", r.Status, err)
	}
	var out []scaffold.Example
	for _, x := range r.Examples {
		if err := accepted(schema, x.Value); err != nil {
			*notes = append(*notes, scaffold.Note{Pointer: "example " + x.Name, Message: "left out: its own schema refuses it: " + err.Error()})
			continue
		}
		out = append(out, scaffold.Example{ID: x.Name, Body: x.Value})
	}
	if len(out) > 0 {
		return out, nil
	}
	minimal, err := generate(r.Schema, genOptions{keep: keep})
	if err != nil {
		minimal, err = Minimal(r.Schema)
	}
	if err != nil {
		return nil, fmt.Errorf("the %s answer has no example its schema accepts, and none can be made from it: %w", r.Status, err)
	}
	*notes = append(*notes, scaffold.Note{Pointer: "example minimal", Message: "the description gives no example its schema accepts: a minimal one was made from the schema (its required members, and those on the way to what is kept)"})
	return []scaffold.Example{{ID: "minimal", Body: minimal}}, nil
}

// errorAnswers returns the declared answers of status 300 to 599, of a
// range ("4XX") and the default, each with its first example or, when it
// has none, a minimal instance of its schema; the rest are notes.
func (op *Operation) errorAnswers(notes *[]scaffold.Note) []scaffold.ErrorAnswer {
	var out []scaffold.ErrorAnswer
	for _, r := range op.Responses {
		e := scaffold.ErrorAnswer{Schema: r.Schema, Name: title(r.Schema)}
		status, err := strconv.Atoi(r.Status)
		switch up := strings.ToUpper(r.Status); {
		case err == nil && (status < 300 || status > 599):
			continue
		case err == nil:
			e.Status = status
		case len(up) == 3 && strings.HasSuffix(up, "XX") && up[0] >= '3' && up[0] <= '5':
			e.Range = up
		case up == "DEFAULT":
			e.Range = "default"
		case len(up) == 3 && strings.HasSuffix(up, "XX"):
			continue // 1XX, 2XX: not an error
		default:
			*notes = append(*notes, scaffold.Note{Pointer: "responses " + r.Status, Message: "not a status, a range or default: left out"})
			continue
		}
		if slices.ContainsFunc(out, func(o scaffold.ErrorAnswer) bool { return o.Status == e.Status && o.Range == e.Range }) {
			continue
		}
		if len(r.Examples) > 0 {
			e.Body = r.Examples[0].Value
		} else if len(r.Schema) > 0 {
			if minimal, err := Minimal(r.Schema); err == nil {
				e.Body = minimal
			}
		}
		out = append(out, e)
	}
	return out
}

// title is a schema's title, "" when it has none.
func title(schema json.RawMessage) string {
	var s struct {
		Title string `json:"title"`
	}
	_ = json.Unmarshal(schema, &s)
	return s.Title
}

// keepCandidates says what a success has to keep: the pointers of its
// top-level members, or of a list's elements' members, and the whole
// answer.
func keepCandidates(schema json.RawMessage) string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Items      *struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"items"`
	}
	_ = json.Unmarshal(schema, &s)
	prefix, props := "/", s.Properties
	if s.Items != nil {
		prefix, props = "/*/", s.Items.Properties
	}
	var out []string
	for name := range props {
		out = append(out, prefix+pointerEscaper.Replace(name))
	}
	slices.Sort(out)
	if len(out) == 0 {
		return "it has no members to name: " + WholeAnswer + " keeps the whole answer"
	}
	return "its members: " + strings.Join(out, ", ") + " (or " + WholeAnswer + ", the whole answer)"
}
