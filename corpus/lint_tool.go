package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"path"
	"regexp"
	"strings"

	"github.com/toolcert/toolcert/internal/judge"
)

// toolCheck is what the checks of tool.json leave for the cases: the tool
// and which of its parts work.
type toolCheck struct {
	tool *Tool
	// usable are the versions Evaluate can run: schema compiled, binding
	// well formed.
	usable map[string]bool
	// contract is the compiled agent contract, nil when it is broken.
	contract *compiledSchema
	// args is the compiled argument schema, nil when it is broken.
	args *judge.Schema
}

// toolFile checks tool.json of t, its upstream schemas and its contract.
func (l *linter) toolFile(t *Tool) *toolCheck {
	file := path.Join(t.Name, "tool.json")
	tc := &toolCheck{tool: t, usable: map[string]bool{}}
	props := l.arguments(t, tc)
	l.request(t, props)
	formatOK := l.format(t)
	l.errorAnswers(t)
	if len(t.Versions) == 0 {
		l.add(file, "/versions", "no upstream version")
	}
	for _, v := range t.VersionNames() {
		tc.usable[v] = l.version(t, v, props) && formatOK
	}
	tc.contract = l.contract(t)
	if tc.contract == nil {
		clear(tc.usable) // every evaluation needs the contract
	} else {
		l.opaque(t.Name, tc.contract)
	}
	return tc
}

// arguments checks the argument schema and returns its properties (nil
// when it is broken).
func (l *linter) arguments(t *Tool, tc *toolCheck) map[string]any {
	file := path.Join(t.Name, "tool.json")
	if len(t.Arguments) == 0 {
		l.add(file, "/arguments", "no argument schema")
		return nil
	}
	sch, err := judge.Compile(t.Name+" arguments", t.Arguments)
	if err != nil {
		l.schemaProblem(file, "/arguments", err)
		return nil
	}
	tc.args = sch
	if err := judge.Closed(t.Arguments); err != nil {
		l.add(file, "/arguments", "%v", err)
	}
	doc, _ := judge.ParseJSON(t.Arguments, judge.Limits{MaxDepth: 256}) // Compile parsed it
	props, _ := judge.Lookup(doc, "/properties")
	m, _ := props.(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m
}

// placeholder is an {argument} in a request path.
var placeholder = regexp.MustCompile(`\{([^{}]*)\}`)

// request checks the request line: a method, a path from "/", every
// placeholder an argument (args nil: the argument schema is broken).
func (l *linter) request(t *Tool, args map[string]any) {
	file := path.Join(t.Name, "tool.json")
	if t.Request.Method == "" {
		l.add(file, "/request/method", "no method")
	}
	if !strings.HasPrefix(t.Request.Path, "/") {
		l.add(file, "/request/path", "%q does not start with /", t.Request.Path)
	}
	for _, m := range placeholder.FindAllStringSubmatch(t.Request.Path, -1) {
		if _, ok := args[m[1]]; !ok && args != nil {
			l.add(file, "/request/path", "{%s} is not an argument property", m[1])
		}
	}
}

// format checks the format, keys and content type; it reports whether
// Evaluate can run with them.
func (l *linter) format(t *Tool) bool {
	file := path.Join(t.Name, "tool.json")
	ok := true
	switch t.Format {
	case FormatJSON:
		if len(t.Keys) > 0 {
			l.add(file, "/keys", "keys are for format %s only", FormatKeyValue)
		}
	case FormatKeyValue:
		if len(t.Keys) == 0 {
			l.add(file, "/keys", "format %s needs keys", FormatKeyValue)
			ok = false
		}
	default:
		l.add(file, "/format", "format %q is not %s or %s", t.Format, FormatJSON, FormatKeyValue)
		ok = false
	}
	if _, params, err := mime.ParseMediaType(t.ContentType); err != nil || len(params) > 0 {
		l.add(file, "/content_type", "%q is not a media type without parameters", t.ContentType)
		ok = false
	}
	return ok
}

// errorAnswers checks the tool's error answers: each one's own faults
// (ErrorAnswer.Check), a second entry for a status or range, a body that
// is not JSON once its text and placeholders are rendered.
func (l *linter) errorAnswers(t *Tool) {
	file := path.Join(t.Name, "tool.json")
	seen := map[string]bool{}
	for i, e := range t.Errors {
		at := fmt.Sprintf("/errors/%d", i)
		if err := e.Check(); err != nil {
			l.add(file, at, "%v", err)
			continue
		}
		key := strings.ToUpper(e.Status)
		if seen[key] {
			l.add(file, at+"/status", "a second entry for %s: the first one answers it", e.Status)
		}
		seen[key] = true
		body, err := Render(e.Render(499, "{{canary:lint}} text"), file+" "+at, l.vars)
		switch {
		case err != nil:
			l.addErr(file, err)
		case len(e.Body) > 0 && !json.Valid(body):
			l.add(file, at+"/body", "not JSON once its text and placeholders are rendered: %.200q", body)
		}
	}
}

// contract checks contract.json and returns it compiled, or nil.
func (l *linter) contract(t *Tool) *compiledSchema {
	file := path.Join(t.Name, "contract.json")
	if _, err := l.c.Fixture(file); errors.Is(err, fs.ErrNotExist) {
		l.add(file, "", "does not exist")
		return nil
	}
	return l.schemaFile(file)
}

// schemaFile compiles the schema file at name (the Evaluate cache) and
// checks that it is closed; it returns nil when it does not compile.
func (l *linter) schemaFile(name string) *compiledSchema {
	s, err := l.c.schema(name)
	if err != nil {
		l.schemaProblem(name, "", err)
		return nil
	}
	raw, _ := l.c.Fixture(name) // schema read it
	if err := judge.Closed(raw); err != nil {
		l.add(name, "", "%v", err)
	}
	return s
}

// schemaProblem records a schema that does not compile, at its $schema
// when that names another draft.
func (l *linter) schemaProblem(file, at string, err error) {
	if errors.Is(err, judge.ErrDraft) {
		at += "/$schema"
	}
	l.add(file, at, "%v", err)
}
