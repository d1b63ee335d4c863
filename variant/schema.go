package variant

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
)

// rule is what a version's schema says about one value: the keywords the
// generator reads to declare which hostile values the schema refuses.
// Subschemas under allOf are merged into one rule. Keywords the generator
// does not read ($ref, anyOf, oneOf, if/then, ...) make the rule unknown,
// and operators whose outcome depends on it skip the value.
type rule struct {
	unknown   bool
	types     []string // "type", empty when absent
	enum      []string // "enum" and "const" members, as canonical JSON text
	hasEnum   bool
	pattern   *regexp.Regexp
	format    string
	minLength int // -1 when absent
	maxLength int // -1 when absent
	minimum   *float64
	maximum   *float64
	props     map[string]*rule
	propOrder []string // declared properties, in schema order
	items     *rule    // "items": the rule of every element, nil when absent
	required  []string
	closed    bool // additionalProperties or unevaluatedProperties false
}

// parseRule reads a schema document into its root rule.
func parseRule(schema []byte) (*rule, error) {
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("read schema: %w", err)
	}
	return buildRule(doc), nil
}

// knownKeywords are the keywords buildRule understands; any other keyword
// that constrains a value makes the rule unknown.
var knownKeywords = []string{
	"$schema", "$id", "title", "description", "$comment", "examples", "default",
	"type", "enum", "const", "pattern", "format", "minLength", "maxLength",
	"minimum", "maximum", "properties", "required", "additionalProperties",
	"unevaluatedProperties", "allOf", "items", "minItems", "maxItems",
}

// buildRule reads one schema object, merging its allOf parts into it,
// and the one branch of an anyOf or oneOf whose other branches only
// allow null (a nullable value, as an import writes it).
func buildRule(doc any) *rule {
	r := &rule{minLength: -1, maxLength: -1, props: map[string]*rule{}}
	obj, ok := doc.(map[string]any)
	if !ok {
		r.unknown = doc != true
		return r
	}
	nullable, branch := nullableBranch(obj)
	for k := range obj {
		if !slices.Contains(knownKeywords, k) && k != nullable {
			r.unknown = true
		}
	}
	r.readLeaf(obj)
	r.readObject(obj)
	if items, ok := obj["items"]; ok {
		r.items = buildRule(items)
	}
	if parts, ok := obj["allOf"].([]any); ok {
		for _, p := range parts {
			r.merge(buildRule(p))
		}
	}
	if nullable != "" {
		r.merge(buildRule(branch))
		r.allowNull()
	}
	return r
}

// nullableBranch returns the keyword ("anyOf" or "oneOf") of a
// composition whose branches but one each allow null only, and that one
// branch; "" when obj has no such composition, or both keywords.
func nullableBranch(obj map[string]any) (string, any) {
	found, branch := "", any(nil)
	for _, key := range []string{"anyOf", "oneOf"} {
		parts, ok := obj[key].([]any)
		if !ok {
			continue
		}
		var others []any
		for _, p := range parts {
			if !onlyNull(p) {
				others = append(others, p)
			}
		}
		if found != "" || len(others) != 1 || len(parts) < 2 {
			return "", nil
		}
		found, branch = key, others[0]
	}
	return found, branch
}

// onlyNull reports whether schema p allows null and nothing else:
// {"type": "null"}, {"const": null} or {"enum": [null]}, with annotations
// at most.
func onlyNull(p any) bool {
	obj, ok := p.(map[string]any)
	if !ok {
		return false
	}
	null := obj["type"] == "null" || obj["const"] == nil && hasKey(obj, "const")
	if e, ok := obj["enum"].([]any); ok && len(e) == 1 && e[0] == nil {
		null = true
	}
	for k := range obj {
		switch k {
		case "type", "const", "enum", "title", "description", "$comment":
		default:
			return false
		}
	}
	return null
}

// hasKey reports whether obj has member k.
func hasKey(obj map[string]any, k string) bool {
	_, ok := obj[k]
	return ok
}

// allowNull widens r to let null through: into its types when it names
// any, into its enum when it has one.
func (r *rule) allowNull() {
	if len(r.types) > 0 && !slices.Contains(r.types, "null") {
		r.types = append(slices.Clone(r.types), "null")
	}
	if r.hasEnum && !slices.Contains(r.enum, "null") {
		r.enum = append(slices.Clone(r.enum), "null")
	}
}

// readLeaf reads the keywords that constrain a scalar.
func (r *rule) readLeaf(obj map[string]any) {
	switch t := obj["type"].(type) {
	case string:
		r.types = []string{t}
	case []any:
		for _, s := range t {
			if s, ok := s.(string); ok {
				r.types = append(r.types, s)
			}
		}
	}
	if e, ok := obj["enum"].([]any); ok {
		r.hasEnum = true
		for _, v := range e {
			r.enum = append(r.enum, canonical(v))
		}
	}
	if c, ok := obj["const"]; ok {
		r.hasEnum, r.enum = true, []string{canonical(c)}
	}
	if p, ok := obj["pattern"].(string); ok {
		re, err := regexp.Compile(p)
		r.pattern, r.unknown = re, r.unknown || err != nil
	}
	r.format, _ = obj["format"].(string)
	r.minLength = intKeyword(obj, "minLength")
	r.maxLength = intKeyword(obj, "maxLength")
	r.minimum = floatKeyword(obj, "minimum")
	r.maximum = floatKeyword(obj, "maximum")
}

// readObject reads the keywords that constrain an object.
func (r *rule) readObject(obj map[string]any) {
	if props, ok := obj["properties"].(map[string]any); ok {
		for _, name := range sortedKeys(props) {
			r.props[name] = buildRule(props[name])
			r.propOrder = append(r.propOrder, name)
		}
	}
	if req, ok := obj["required"].([]any); ok {
		for _, s := range req {
			if s, ok := s.(string); ok {
				r.required = append(r.required, s)
			}
		}
	}
	r.closed = obj["additionalProperties"] == false || obj["unevaluatedProperties"] == false
}

// merge folds the rule of an allOf part into r.
func (r *rule) merge(o *rule) {
	r.unknown = r.unknown || o.unknown
	if len(r.types) == 0 {
		r.types = o.types
	}
	if !r.hasEnum {
		r.hasEnum, r.enum = o.hasEnum, o.enum
	}
	if r.pattern == nil {
		r.pattern = o.pattern
	}
	if r.format == "" {
		r.format = o.format
	}
	r.minLength = max(r.minLength, o.minLength)
	if r.maxLength < 0 || (o.maxLength >= 0 && o.maxLength < r.maxLength) {
		r.maxLength = o.maxLength
	}
	r.minimum, r.maximum = cmpOr(r.minimum, o.minimum), cmpOr(r.maximum, o.maximum)
	for _, name := range o.propOrder {
		if p, ok := r.props[name]; ok {
			p.merge(o.props[name])
			continue
		}
		r.props[name] = o.props[name]
		r.propOrder = append(r.propOrder, name)
	}
	r.required = append(r.required, o.required...)
	r.closed = r.closed || o.closed
	switch {
	case r.items == nil:
		r.items = o.items
	case o.items != nil:
		r.items.merge(o.items)
	}
}

// at returns the rule of the value at the JSON pointer ptr, or an unknown
// rule when the schema does not say.
func (r *rule) at(ptr string) *rule {
	cur := r
	for _, tok := range splitPointer(ptr) {
		next, ok := cur.props[tok]
		if _, err := strconv.Atoi(tok); err == nil && cur.items != nil {
			next, ok = cur.items, true
		}
		if !ok || cur.unknown {
			return &rule{unknown: true, minLength: -1, maxLength: -1}
		}
		cur = next
	}
	return cur
}

// isRequired reports whether the object rule requires name.
func (r *rule) isRequired(name string) bool { return slices.Contains(r.required, name) }

// allowsMember reports whether the object rule lets a member called name
// through: it declares it, or it is not closed.
func (r *rule) allowsMember(name string) bool {
	_, ok := r.props[name]
	return ok || !r.closed
}

// intKeyword returns a non-negative integer keyword, or -1.
func intKeyword(obj map[string]any, k string) int {
	if f := floatKeyword(obj, k); f != nil && *f >= 0 && *f == math.Trunc(*f) {
		return int(*f)
	}
	return -1
}

// floatKeyword returns a number keyword, or nil.
func floatKeyword(obj map[string]any, k string) *float64 {
	n, ok := obj[k].(json.Number)
	if !ok {
		return nil
	}
	f, err := n.Float64()
	if err != nil {
		return nil
	}
	return &f
}

// cmpOr returns a when it is set, else b.
func cmpOr(a, b *float64) *float64 {
	if a != nil {
		return a
	}
	return b
}

// canonical returns v as compact JSON text, numbers as written.
func canonical(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// sortedKeys returns the keys of m, sorted, for a deterministic order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
