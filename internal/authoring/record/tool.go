package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/internal/authoring/scaffold"
)

// ToolOptions are the owner's choices for the tool a recording becomes.
type ToolOptions struct {
	// Name is the tool's name.
	Name string
	// Keep are the pointers of what the agent keeps (scaffold.Tool.Keep);
	// none keeps every top-level member (whole elements of a list), and
	// asks the owner to narrow it.
	Keep []string
	// Enum makes string members of few values enums (InferOptions).
	Enum bool
	// Source says where the answers came from, for NOTES.md.
	Source string
}

// ErrNothingRecorded means no answer can be an accepted example: none
// came, or none was a strict JSON 2xx answer of the route.
var ErrNothingRecorded = errors.New("no answer recorded that can be an accepted example")

// Tool returns the tool of what r recorded: the route, one accepted
// example per usable answer, the schema inferred from them, the recorded
// error answers as rejects, and every inference as a decision left to the
// owner.
func (r *Recorder) Tool(opts ToolOptions) (scaffold.Tool, error) {
	answers := r.Answers()
	var bodies [][]byte
	var examples []scaffold.Example
	var errs []scaffold.ErrorAnswer
	for _, a := range answers {
		switch {
		case a.Note == "":
			bodies = append(bodies, a.Body)
			examples = append(examples, scaffold.Example{ID: fmt.Sprintf("recorded_%d", len(examples)+1), Body: a.Body, Raw: true, Arguments: a.Arguments})
		case a.Status >= 300 && json.Valid(a.Body) && !hasStatus(errs, a.Status):
			errs = append(errs, scaffold.ErrorAnswer{Status: a.Status, Body: a.Body, Name: "recorded"})
		}
	}
	if len(examples) == 0 {
		return scaffold.Tool{}, fmt.Errorf("%w (%d answers, %d forwarded and skipped)", ErrNothingRecorded, len(answers), len(r.Skipped()))
	}
	schema, inferred, err := Infer(bodies, InferOptions{Enum: opts.Enum})
	if err != nil {
		return scaffold.Tool{}, err
	}
	method, path, routeInferred := r.Route()
	t := scaffold.Tool{
		Name: opts.Name, Method: method, Path: path, Arguments: routeArguments(path, answers),
		ContentType: contentType(answers), Schema: schema, Examples: examples, Errors: errs,
		Keep: opts.Keep, Source: opts.Source,
		Description: fmt.Sprintf("Recorded from %d answers of %s %s.", len(examples), method, path),
	}
	t.VersionHeader, t.Version = versionOf(answers)
	file := "upstream/" + versionName(t.Version) + ".schema.json"
	for _, in := range inferred {
		t.Decide = append(t.Decide, corpus.Decision{File: file, Pointer: in.Pointer, Decide: "inferred: " + in.What})
	}
	for _, in := range routeInferred {
		t.Decide = append(t.Decide, corpus.Decision{File: "tool.json", Pointer: in.Pointer, Decide: "inferred: " + in.What})
	}
	if len(t.Keep) == 0 {
		t.Keep = keepAll(schema)
		t.Decide = append(t.Decide, corpus.Decision{File: "tool.json", Pointer: "/versions/" + versionName(t.Version) + "/project",
			Decide: "no --keep: the agent keeps every member of the answer (" + strings.Join(t.Keep, ", ") + "); keep only what it needs"})
	}
	return t, nil
}

// hasStatus reports whether errs holds an answer of status.
func hasStatus(errs []scaffold.ErrorAnswer, status int) bool {
	return slices.ContainsFunc(errs, func(e scaffold.ErrorAnswer) bool { return e.Status == status })
}

// routeArguments are the route's {name} segments, each a path argument
// whose schema is a string of the shape seen: digits when every value
// was, else a bounded word.
func routeArguments(path string, answers []Answer) []scaffold.Argument {
	var out []scaffold.Argument
	for _, m := range braces.FindAllStringSubmatch(path, -1) {
		name := m[1]
		digits := true
		for _, a := range answers {
			if v, ok := a.Arguments[name]; ok && !allDigits.MatchString(v) {
				digits = false
			}
		}
		schema := `{"type": "string"}`
		if digits {
			schema = `{"type": "integer", "minimum": 0}`
		}
		example := ""
		for _, a := range answers {
			if v, ok := a.Arguments[name]; ok && a.Note == "" {
				example = v
				break
			}
		}
		ex, _ := json.Marshal(example)
		out = append(out, scaffold.Argument{Name: name, In: "path", Required: true, Schema: json.RawMessage(schema), Example: ex})
	}
	return out
}

var (
	braces    = regexp.MustCompile(`\{([^{}]+)\}`)
	allDigits = regexp.MustCompile(`^[0-9]+$`)
	// versionFile is a version a schema file can be named after.
	versionFile = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$`)
)

// contentType is the media type of the first usable answer.
func contentType(answers []Answer) string {
	for _, a := range answers {
		if a.Note == "" {
			return a.Header.Get("Content-Type")
		}
	}
	return ""
}

// versionOf returns the version header every usable answer carries with
// one value, and that value; "", "" when they do not agree.
func versionOf(answers []Answer) (header, value string) {
	for _, a := range answers {
		if a.Note != "" {
			continue
		}
		name, v := "", ""
		for k, vs := range a.Header {
			if !strings.EqualFold(k, "Content-Type") && len(vs) == 1 {
				name, v = k, vs[0]
			}
		}
		switch {
		case name == "" || !versionFile.MatchString(v):
			return "", ""
		case header == "":
			header, value = name, v
		case header != name || value != v:
			return "", ""
		}
	}
	return header, value
}

// versionName is the corpus's name of version v.
func versionName(v string) string {
	if v == "" {
		return "v1"
	}
	return v
}

// keepAll keeps every top-level member of schema, or whole elements of a
// list.
func keepAll(schema json.RawMessage) []string {
	var s struct {
		Type       any                        `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(schema, &s)
	if s.Type == "array" {
		return []string{"/*"}
	}
	var out []string
	for name := range s.Properties {
		out = append(out, "/"+strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1"))
	}
	slices.Sort(out)
	if len(out) == 0 {
		return []string{""}
	}
	return out
}
