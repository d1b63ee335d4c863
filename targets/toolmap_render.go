package targets

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"text/template"

	"github.com/toolcert/toolcert/protocol"
)

// templateFuncs are the functions a tool map's templates may call: json
// quotes a value as JSON, path escapes it for a path segment, query for a
// query, and token is the session's token.
func templateFuncs(token string) template.FuncMap {
	return template.FuncMap{
		"json":  func(v any) (string, error) { b, err := json.Marshal(v); return string(b), err },
		"path":  url.PathEscape,
		"query": url.QueryEscape,
		"token": func() string { return token },
	}
}

// parse parses one of m's templates.
func parse(name, text, token string) (*template.Template, error) {
	t, err := template.New(name).Option("missingkey=error").Funcs(templateFuncs(token)).Parse(text)
	if err != nil {
		return nil, fmt.Errorf("%s template: %w", name, err)
	}
	return t, nil
}

// render renders one of m's templates over the corpus's arguments.
func render(name, text string, data map[string]any, token string) (string, error) {
	t, err := parse(name, text, token)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return "", fmt.Errorf("%s template: %w", name, err)
	}
	return b.String(), nil
}

// Check reports whether m is well formed: its templates parse, its
// result and failure status read, its pointers are JSON pointers.
func (m ToolMap) Check() error {
	for name, text := range map[string]string{"arguments": m.Arguments, "path": m.Path, "body": m.Body} {
		if _, err := parse(name, text, ""); err != nil {
			return err
		}
	}
	for name, text := range m.Header {
		if _, err := parse("header "+name, text, ""); err != nil {
			return err
		}
	}
	if _, _, err := m.Source(); err != nil {
		return err
	}
	if _, err := m.Failed(200); err != nil {
		return err
	}
	for name, ptr := range map[string]string{"data": m.Data, "code": m.Code, "retryable": m.Retryable, "failure pointer": m.FailurePointer} {
		if err := checkPointer(ptr); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	for name, ptrs := range map[string][]string{"volatile pointer": m.Volatile.Pointers, "compare adds": m.Compare.Adds, "compare hidden": m.Compare.Hidden} {
		for _, ptr := range ptrs {
			if err := checkPointer(ptr); err != nil || ptr == "" {
				return fmt.Errorf("%s: %w", name, cmp.Or(err, fmt.Errorf(`"" names the whole answer: want a member's pointer`)))
			}
		}
	}
	for own, code := range m.Codes {
		if own == "" || !slices.Contains(protocolCodes(), code) {
			return fmt.Errorf("codes: %q maps to %q: want one of %s", own, code, strings.Join(protocolCodes(), ", "))
		}
	}
	for _, p := range m.Volatile.Patterns {
		if _, err := regexp.Compile(p); err != nil {
			return fmt.Errorf("volatile pattern %q: %w", p, err)
		}
	}
	return nil
}

// checkPointer reports whether s is a JSON pointer (RFC 6901): "" or
// "/"-separated tokens, with ~ only as ~0 or ~1.
func checkPointer(s string) error {
	if s != "" && s[0] != '/' {
		return fmt.Errorf("%q is not a JSON pointer: want \"\" or one that starts with /", s)
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && (i+1 == len(s) || (s[i+1] != '0' && s[i+1] != '1')) {
			return fmt.Errorf("%q is not a JSON pointer: ~ must be written ~0 and / ~1", s)
		}
	}
	return nil
}

// arguments decodes the corpus's arguments for the templates.
func arguments(args []byte) (map[string]any, error) {
	var data map[string]any
	if err := json.Unmarshal(args, &data); err != nil {
		return nil, fmt.Errorf("the corpus's arguments are not a JSON object: %w", err)
	}
	return data, nil
}

// RenderArguments returns the target's arguments for the corpus's args (a
// JSON object): m.Arguments rendered, or args as they are when it is "".
// The result must be one JSON object.
func (m ToolMap) RenderArguments(args []byte) (json.RawMessage, error) {
	if m.Arguments == "" {
		return json.RawMessage(args), nil
	}
	data, err := arguments(args)
	if err != nil {
		return nil, err
	}
	out, err := render("arguments", m.Arguments, data, "")
	if err != nil {
		return nil, err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		return nil, fmt.Errorf("the argument template gives %.200q, not a JSON object: %w", out, err)
	}
	return json.RawMessage(out), nil
}

// Request is the HTTP request of one call of an HTTP tool service.
type Request struct {
	Method, Path string
	Header       http.Header
	Body         []byte // nil for none
}

// RenderRequest returns the request that calls the tool with the corpus's
// args in the session of token: m's path, header and body rendered. Method
// "" is POST; Body "" sends args for POST, PUT and PATCH, nothing else.
func (m ToolMap) RenderRequest(args []byte, token string) (Request, error) {
	data, err := arguments(args)
	if err != nil {
		return Request{}, err
	}
	r := Request{Method: m.Method, Header: http.Header{}}
	if r.Method == "" {
		r.Method = http.MethodPost
	}
	if r.Path, err = render("path", m.Path, data, token); err != nil {
		return r, err
	}
	for name, text := range m.Header {
		v, err := render("header "+name, text, data, token)
		if err != nil {
			return r, err
		}
		r.Header.Set(name, v)
	}
	switch {
	case m.Body != "":
		body, err := render("body", m.Body, data, token)
		if err != nil {
			return r, err
		}
		r.Body = []byte(body)
	case r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodPatch:
		r.Body = args
	}
	if r.Body != nil && r.Header.Get("Content-Type") == "" {
		r.Header.Set("Content-Type", "application/json")
	}
	return r, nil
}

// protocolCodes returns the protocol's error codes as strings.
func protocolCodes() []string {
	var out []string
	for _, c := range protocol.Codes() {
		out = append(out, string(c))
	}
	return out
}
