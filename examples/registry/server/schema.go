package main

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// description is the registry's OpenAPI description, a copy of
// ../openapi.yaml (registry_test.go checks that they stay equal). Every
// answer is checked against the schema its route declares for a success.
//
//go:embed openapi.yaml
var description []byte

// validator checks decoded JSON against the OpenAPI 3.0 schemas of the
// description: the subset it uses ($ref, allOf, nullable, type, enum,
// properties, required, items, minItems, maxItems, minLength, maxLength,
// pattern, format date-time and uri, minimum, maximum, format int32).
// Objects are open, as the description has them: a member it does not
// declare is not checked (the typed structs drop it).
type validator struct {
	doc      map[string]any
	patterns map[string]*regexp.Regexp
}

// newValidator parses the description and compiles its patterns.
func newValidator(doc []byte) (*validator, error) {
	v := &validator{patterns: map[string]*regexp.Regexp{}}
	if err := yaml.Unmarshal(doc, &v.doc); err != nil {
		return nil, fmt.Errorf("parse the description: %w", err)
	}
	var compile func(node any) error
	compile = func(node any) error {
		switch n := node.(type) {
		case map[string]any:
			if p, ok := n["pattern"].(string); ok {
				re, err := regexp.Compile(p)
				if err != nil {
					return fmt.Errorf("pattern %q: %w", p, err)
				}
				v.patterns[p] = re
			}
			for _, c := range n {
				if err := compile(c); err != nil {
					return err
				}
			}
		case []any:
			for _, c := range n {
				if err := compile(c); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return v, compile(v.doc)
}

// answer returns the schema of the JSON success of method route (route as
// the description writes the path), or an error naming what is missing.
func (v *validator) answer(method, route string, status string) (map[string]any, error) {
	node, ok := v.at("paths", route, strings.ToLower(method), "responses", status, "content", "application/json", "schema").(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the description has no %s answer of %s %s", status, method, route)
	}
	return node, nil
}

// at walks the description by member names.
func (v *validator) at(names ...string) any {
	var node any = v.doc
	for _, n := range names {
		m, ok := node.(map[string]any)
		if !ok {
			return nil
		}
		node = m[n]
	}
	return node
}

// resolve follows a local $ref.
func (v *validator) resolve(ref string) (map[string]any, error) {
	const prefix = "#/components/schemas/"
	if !strings.HasPrefix(ref, prefix) {
		return nil, fmt.Errorf("unsupported $ref %q", ref)
	}
	s, ok := v.at("components", "schemas", strings.TrimPrefix(ref, prefix)).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("no schema %q", ref)
	}
	return s, nil
}

// validate checks x, decoded with UseNumber, against schema s; at is
// where x is, for the error.
func (v *validator) validate(s map[string]any, x any, at string) error {
	if ref, ok := s["$ref"].(string); ok {
		r, err := v.resolve(ref)
		if err != nil {
			return err
		}
		s = r
	}
	if x == nil {
		if s["nullable"] == true {
			return nil
		}
		return fmt.Errorf("%s: null", where(at))
	}
	if all, ok := s["allOf"].([]any); ok {
		for _, sub := range all {
			m, _ := sub.(map[string]any)
			if err := v.validate(m, x, at); err != nil {
				return err
			}
		}
	}
	if enum, ok := s["enum"].([]any); ok && !inEnum(enum, x) {
		return fmt.Errorf("%s: not one of the enum's values", where(at))
	}
	switch s["type"] {
	case "object":
		m, ok := x.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: not an object", where(at))
		}
		for _, r := range list(s["required"]) {
			if _, ok := m[r.(string)]; !ok {
				return fmt.Errorf("%s: %s missing", where(at), r)
			}
		}
		props, _ := s["properties"].(map[string]any)
		for name, sub := range props {
			if val, ok := m[name]; ok {
				if err := v.validate(sub.(map[string]any), val, at+"/"+name); err != nil {
					return err
				}
			}
		}
	case "array":
		a, ok := x.([]any)
		if !ok {
			return fmt.Errorf("%s: not an array", where(at))
		}
		if n, ok := number(s["minItems"]); ok && float64(len(a)) < n {
			return fmt.Errorf("%s: too few items", where(at))
		}
		if n, ok := number(s["maxItems"]); ok && float64(len(a)) > n {
			return fmt.Errorf("%s: too many items", where(at))
		}
		items, _ := s["items"].(map[string]any)
		for i, e := range a {
			if items != nil {
				if err := v.validate(items, e, fmt.Sprintf("%s/%d", at, i)); err != nil {
					return err
				}
			}
		}
	case "string":
		str, ok := x.(string)
		if !ok {
			return fmt.Errorf("%s: not a string", where(at))
		}
		n := float64(utf8.RuneCountInString(str))
		if m, ok := number(s["minLength"]); ok && n < m {
			return fmt.Errorf("%s: too short", where(at))
		}
		if m, ok := number(s["maxLength"]); ok && n > m {
			return fmt.Errorf("%s: too long", where(at))
		}
		if p, ok := s["pattern"].(string); ok && !v.patterns[p].MatchString(str) {
			return fmt.Errorf("%s: does not match its pattern", where(at))
		}
		switch s["format"] {
		case "date-time":
			if _, err := time.Parse(time.RFC3339, str); err != nil {
				return fmt.Errorf("%s: not a date-time", where(at))
			}
		case "uri":
			if u, err := url.Parse(str); err != nil || !u.IsAbs() || u.Host == "" {
				return fmt.Errorf("%s: not an absolute URI", where(at))
			}
		}
	case "integer":
		num, ok := x.(json.Number)
		if !ok {
			return fmt.Errorf("%s: not a number", where(at))
		}
		i, err := strconv.ParseInt(num.String(), 10, 64)
		if err != nil {
			return fmt.Errorf("%s: not a 64-bit integer", where(at))
		}
		if s["format"] == "int32" && (i < math.MinInt32 || i > math.MaxInt32) {
			return fmt.Errorf("%s: not a 32-bit integer", where(at))
		}
		if m, ok := number(s["minimum"]); ok && float64(i) < m {
			return fmt.Errorf("%s: below its minimum", where(at))
		}
		if m, ok := number(s["maximum"]); ok && float64(i) > m {
			return fmt.Errorf("%s: above its maximum", where(at))
		}
	case "boolean":
		if _, ok := x.(bool); !ok {
			return fmt.Errorf("%s: not a boolean", where(at))
		}
	case nil:
	default:
		return fmt.Errorf("%s: unsupported type %v", where(at), s["type"])
	}
	return nil
}

// where names a place in an answer for an error (the log's, never the
// agent's).
func where(at string) string {
	if at == "" {
		return "the answer"
	}
	return at
}

// list returns node as a list, or nil.
func list(node any) []any {
	l, _ := node.([]any)
	return l
}

// number returns a YAML number as a float64.
func number(node any) (float64, bool) {
	switch n := node.(type) {
	case int:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

// inEnum reports whether x is one of enum's values.
func inEnum(enum []any, x any) bool {
	for _, e := range enum {
		switch want := e.(type) {
		case string:
			if got, ok := x.(string); ok && got == want {
				return true
			}
		case bool:
			if got, ok := x.(bool); ok && got == want {
				return true
			}
		case int:
			if got, ok := x.(json.Number); ok && got.String() == strconv.Itoa(want) {
				return true
			}
		}
	}
	return false
}

// errText means the bytes of an answer are not text JSON may carry.
var errText = errors.New("the answer is not valid UTF-8, or escapes a lone surrogate")

// checkText refuses a body that is not UTF-8 or that escapes a lone
// surrogate (\ud800 alone): encoding/json would replace either with
// U+FFFD, and the agent would be shown a garbled value as if the
// registry had sent it.
func checkText(body []byte) error {
	if !utf8.Valid(body) {
		return errText
	}
	inString := false
	for i := 0; i < len(body); i++ {
		c := body[i]
		if !inString {
			if c == '"' {
				inString = true
			}
			continue
		}
		switch c {
		case '"':
			inString = false
		case '\\':
			if i+1 < len(body) && body[i+1] == 'u' {
				r, ok := hex4(body, i+2)
				if ok && r >= 0xd800 && r <= 0xdbff {
					// A high surrogate must be followed by \u and a low one.
					lo, ok := rune(0), false
					if i+7 < len(body) && body[i+6] == '\\' && body[i+7] == 'u' {
						lo, ok = hex4(body, i+8)
					}
					if !ok || lo < 0xdc00 || lo > 0xdfff {
						return errText
					}
					i += 11
					continue
				}
				if ok && r >= 0xdc00 && r <= 0xdfff {
					return errText
				}
				i += 5
				continue
			}
			i++ // the escaped character
		}
	}
	return nil
}

// hex4 reads four hex digits at b[i:].
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[i:i+4]), 16, 32)
	return rune(n), err == nil
}
