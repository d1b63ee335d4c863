package scaffold

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/toolcert/toolcert/corpus"
)

// argumentSchema returns the closed schema of the tool's arguments: one
// string property per argument, since the corpus's arguments are strings
// (an integer parameter is a string of digits), and the decisions its
// arguments leave open.
func argumentSchema(tool string, args []Argument) (*object, []corpus.Decision, error) {
	props := newObject()
	var required []any
	var open []corpus.Decision
	for _, a := range args {
		s, err := parse(a.Schema)
		if a.Schema == nil {
			s, err = newObject(), nil
		}
		if err != nil {
			return nil, nil, fmt.Errorf("argument %s: %w", a.Name, err)
		}
		src, _ := s.(*object)
		if src == nil {
			src = newObject()
		}
		str, bounded := stringForm(src)
		props.set(a.Name, str)
		if a.Required || a.In == "path" {
			required = append(required, a.Name)
		}
		if !bounded {
			open = append(open, corpus.Decision{File: "tool.json", Pointer: "/arguments/properties/" + escapeToken(a.Name),
				Decide: fmt.Sprintf("the %s parameter %q is a string of any length and shape: give it a pattern and a maxLength, so that no path, query or paragraph rides in it (the harness's hostile-argument scenarios send ../, %%2f, ?, CRLF and 64 KiB)", a.In, a.Name)})
		}
	}
	s := newObject("$schema", "https://json-schema.org/draft/2020-12/schema", "title", tool+" arguments",
		"type", "object", "properties", props)
	if len(required) > 0 {
		s.set("required", required)
	}
	s.set("additionalProperties", false)
	return s, open, nil
}

// stringForm returns the schema of the string an argument of schema s is
// written as, and whether that string is bounded (by a pattern, an enum
// or a maxLength).
func stringForm(s *object) (*object, bool) {
	t := typeOf(s)
	enum, hasEnum := s.get("enum")
	switch {
	case hasEnum:
		var vals []any
		for _, v := range enum.([]any) {
			if v != nil {
				vals = append(vals, textOf(v))
			}
		}
		return newObject("type", "string", "enum", vals), true
	case t == "integer":
		return newObject("type", "string", "pattern", integerPattern(s)), true
	case t == "number":
		return newObject("type", "string", "pattern", `^-?(?:0|[1-9][0-9]{0,15})(?:\.[0-9]{1,15})?$`), true
	case t == "boolean":
		return newObject("type", "string", "enum", []any{"true", "false"}), true
	}
	out := newObject("type", "string")
	for _, k := range []string{"pattern", "format", "minLength", "maxLength"} {
		if v, ok := s.get(k); ok {
			out.set(k, v)
		}
	}
	_, pattern := s.get("pattern")
	_, maxLen := s.get("maxLength")
	_, format := s.get("format")
	return out, pattern || maxLen || format
}

// typeOf returns s's one type other than null, "" for none or several.
func typeOf(s *object) string {
	switch t, _ := s.get("type"); t := t.(type) {
	case string:
		return t
	case []any:
		var one string
		for _, x := range t {
			if x != "null" {
				if one != "" {
					return ""
				}
				one, _ = x.(string)
			}
		}
		return one
	}
	return ""
}

// integerPattern is the pattern of an integer's digits: without a sign
// when the minimum is 0 or more, without a leading 0 when it is 1 or more.
func integerPattern(s *object) string {
	min := math.Inf(-1)
	if v, ok := s.get("minimum"); ok {
		fmt.Sscan(fmt.Sprint(v), &min)
	}
	switch {
	case min >= 1:
		return `^[1-9][0-9]{0,18}$`
	case min >= 0:
		return `^(?:0|[1-9][0-9]{0,18})$`
	}
	return `^(?:0|-?[1-9][0-9]{0,18})$`
}

// textOf writes a JSON scalar as the text of an argument.
func textOf(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

// exampleArguments returns a value of every argument: the owner's (given),
// the source's example, or one made from its string form; and the
// arguments it had to make up.
func exampleArguments(args []Argument, forms *object, given map[string]string) (map[string]string, []string) {
	out := map[string]string{}
	var madeUp []string
	for _, a := range args {
		form, _ := forms.get(a.Name)
		f := form.(*object)
		if v, ok := given[a.Name]; ok {
			out[a.Name] = v
			continue
		}
		if v, ok := exampleText(a.Example); ok && fits(f, v) {
			out[a.Name] = v
			continue
		}
		if !a.Required && a.In != "path" {
			continue // an optional query parameter needs no value
		}
		out[a.Name] = madeUpValue(f, a.Name)
		madeUp = append(madeUp, a.Name)
	}
	return out, madeUp
}

// exampleText reads an example value as an argument's text.
func exampleText(raw json.RawMessage) (string, bool) {
	if raw == nil {
		return "", false
	}
	v, err := parse(raw)
	if err != nil {
		return "", false
	}
	switch v.(type) {
	case *object, []any, nil:
		return "", false
	}
	return textOf(v), true
}

// fits reports whether v matches the string form f's enum and pattern.
func fits(f *object, v string) bool {
	if enum, ok := f.get("enum"); ok {
		for _, e := range enum.([]any) {
			if e == v {
				return true
			}
		}
		return false
	}
	if p, ok := f.get("pattern"); ok {
		re, err := regexp.Compile(p.(string))
		return err == nil && re.MatchString(v)
	}
	return true
}

// madeUpValue makes a value of string form f: its first enum member, a
// digit for a digits pattern, else a word from the argument's name.
func madeUpValue(f *object, name string) string {
	if enum, ok := f.get("enum"); ok {
		if list := enum.([]any); len(list) > 0 {
			return textOf(list[0])
		}
	}
	if p, ok := f.get("pattern"); ok && strings.Contains(p.(string), "[0-9]") && fits(f, "1") {
		return "1"
	}
	word := strings.ToLower(nameChars.ReplaceAllString(name, "-"))
	if fits(f, word) {
		return word
	}
	return "example"
}

// escapeToken escapes one JSON pointer token.
func escapeToken(s string) string { return joinPointer([]string{s})[1:] }
