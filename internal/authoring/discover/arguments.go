package discover

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// callArguments are the arguments a tool is called with during discovery,
// and each one's text as a request would carry it.
type callArguments struct {
	Values map[string]any
	// Text is each top-level argument's value as a path or query would
	// hold it (a string as it is, a number in digits).
	Text map[string]string
	// Types is each top-level argument's JSON type as sent.
	Types map[string]string
}

// norm is a name with case, "_" and "-" left out, for matching an
// argument to a parameter of another spelling (pull_number, pullNumber).
func norm(s string) string {
	return strings.NewReplacer("_", "", "-", "", ".", "").Replace(strings.ToLower(s))
}

// argumentsFor makes the arguments of a tool from its input schema: every
// required argument, and every optional one named like a parameter of the
// description (hints, by norm), each with a value its schema allows and,
// where free, one no other argument has: the description's parameter
// example, an enum's first value, a default, an example, or one made up.
func argumentsFor(inputSchema any, hints map[string]string) (callArguments, error) {
	raw, err := json.Marshal(inputSchema)
	if err != nil {
		return callArguments{}, fmt.Errorf("input schema: %w", err)
	}
	var s map[string]any
	if err := json.Unmarshal(raw, &s); err != nil {
		return callArguments{}, fmt.Errorf("input schema: not an object: %w", err)
	}
	out := callArguments{Values: map[string]any{}, Text: map[string]string{}, Types: map[string]string{}}
	props, _ := s["properties"].(map[string]any)
	required := stringSet(s["required"])
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	m := &maker{hints: hints}
	for _, name := range names {
		sub, _ := props[name].(map[string]any)
		_, hinted := hints[norm(name)]
		if !required[name] && !hinted {
			continue
		}
		v, ok := m.value(name, sub, 0)
		if !ok {
			if required[name] {
				return out, fmt.Errorf("argument %q: no value its schema allows could be made", name)
			}
			continue
		}
		out.Values[name] = v
		out.Text[name], out.Types[name] = textOf(v)
	}
	return out, nil
}

// maker makes argument values, each free one distinct.
type maker struct {
	hints map[string]string
	n     int
}

// value returns a value for the argument name of schema s.
func (m *maker) value(name string, s map[string]any, depth int) (any, bool) {
	if depth > 4 {
		return nil, false
	}
	if c, ok := s["const"]; ok {
		return c, true
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[0], true
	}
	typ := typeOf(s)
	if h := m.hints[norm(name)]; h != "" {
		if v, ok := fitHint(h, typ, s); ok {
			return v, true
		}
	}
	if d, ok := s["default"]; ok && d != nil {
		return d, true
	}
	if ex, ok := s["examples"].([]any); ok && len(ex) > 0 {
		return ex[0], true
	}
	m.n++
	switch typ {
	case "integer", "number":
		return m.number(s), true
	case "boolean":
		return false, true
	case "array":
		items, _ := s["items"].(map[string]any)
		v, ok := m.value(name, items, depth+1)
		if !ok {
			return []any{}, true
		}
		return []any{v}, true
	case "object":
		obj := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		for n := range stringSet(s["required"]) {
			sub, _ := props[n].(map[string]any)
			v, ok := m.value(n, sub, depth+1)
			if !ok {
				return nil, false
			}
			obj[n] = v
		}
		return obj, true
	}
	return m.text(name, s)
}

// typeOf returns a schema's type: the first of a list that is not null,
// "string" when it names none.
func typeOf(s map[string]any) string {
	switch t := s["type"].(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if x, _ := x.(string); x != "null" && x != "" {
				return x
			}
		}
	}
	if _, ok := s["properties"]; ok {
		return "object"
	}
	return "string"
}

// number returns a distinct integer within the schema's bounds.
func (m *maker) number(s map[string]any) any {
	v := 1000 + 7*m.n
	lo, hasLo := floatOf(s["minimum"])
	hi, hasHi := floatOf(s["maximum"])
	if hasHi && float64(v) > hi {
		v = int(hi)
		if hasLo && lo > float64(v) {
			v = int(lo)
		}
	}
	if hasLo && float64(v) < lo {
		v = int(lo) + 1
	}
	return v
}

// floatOf returns a JSON number as a float64.
func floatOf(v any) (float64, bool) {
	f, ok := v.(float64)
	return f, ok
}

// formatValues are values of the usual string formats.
var formatValues = map[string]string{
	"date-time": "2026-01-02T03:04:05Z", "date": "2026-01-02", "time": "03:04:05Z",
	"uri": "https://example.com/toolcert", "url": "https://example.com/toolcert",
	"email": "toolcert@example.com", "uuid": "3f1c2b9a-0d4e-4c8a-9b7e-1a2b3c4d5e6f",
	"hostname": "toolcert.example.com", "ipv4": "192.0.2.7",
}

// text returns a distinct string the schema allows: a format's value, or
// the argument's name and a number, within its pattern and lengths.
func (m *maker) text(name string, s map[string]any) (any, bool) {
	format, _ := s["format"].(string)
	cands := []string{}
	if v, ok := formatValues[format]; ok {
		cands = append(cands, v)
	}
	base := strings.Trim(notSlug.ReplaceAllString(strings.ToLower(name), "-"), "-")
	if base == "" {
		base = "value"
	}
	cands = append(cands, fmt.Sprintf("%s-%d", base, 100+m.n), fmt.Sprintf("%s%d", base, 100+m.n), strconv.Itoa(100+m.n), fmt.Sprintf("tc%d", 100+m.n))
	pattern, _ := s["pattern"].(string)
	var re *regexp.Regexp
	if pattern != "" {
		re, _ = regexp.Compile(pattern)
	}
	minLen, _ := floatOf(s["minLength"])
	maxLen, hasMax := floatOf(s["maxLength"])
	for _, c := range cands {
		if re != nil && !re.MatchString(c) || float64(len(c)) < minLen || hasMax && float64(len(c)) > maxLen {
			continue
		}
		return c, true
	}
	if re == nil && !hasMax {
		return strings.Repeat("x", int(minLen)), true
	}
	return nil, false
}

// notSlug is what a made-up value's word is not made of.
var notSlug = regexp.MustCompile(`[^a-z0-9]+`)

// fitHint returns the description's example h as a value of type typ, when
// it fits the schema's pattern.
func fitHint(h, typ string, s map[string]any) (any, bool) {
	switch typ {
	case "integer":
		n, err := strconv.ParseInt(h, 10, 64)
		return n, err == nil
	case "number":
		f, err := strconv.ParseFloat(h, 64)
		return f, err == nil
	case "boolean":
		b, err := strconv.ParseBool(h)
		return b, err == nil
	case "string":
		if p, _ := s["pattern"].(string); p != "" {
			if re, err := regexp.Compile(p); err != nil || !re.MatchString(h) {
				return nil, false
			}
		}
		return h, true
	}
	return nil, false
}

// textOf returns an argument's value as a request would carry it, and its
// JSON type.
func textOf(v any) (string, string) {
	switch x := v.(type) {
	case string:
		return x, "string"
	case bool:
		return strconv.FormatBool(x), "boolean"
	case int:
		return strconv.Itoa(x), "integer"
	case int64:
		return strconv.FormatInt(x, 10), "integer"
	case float64:
		if x == float64(int64(x)) {
			return strconv.FormatInt(int64(x), 10), "integer"
		}
		return strconv.FormatFloat(x, 'f', -1, 64), "number"
	case json.Number:
		if strings.ContainsAny(x.String(), ".eE") {
			return x.String(), "number"
		}
		return x.String(), "integer"
	case nil:
		return "", "null"
	}
	b, _ := json.Marshal(v)
	if _, ok := v.([]any); ok {
		return string(b), "array"
	}
	return string(b), "object"
}

// stringSet returns the strings of a JSON array as a set.
func stringSet(v any) map[string]bool {
	out := map[string]bool{}
	list, _ := v.([]any)
	for _, x := range list {
		if s, ok := x.(string); ok {
			out[s] = true
		}
	}
	return out
}

// sortedKeys returns m's keys, sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
