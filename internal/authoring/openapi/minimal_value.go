package openapi

import (
	"errors"
	"slices"
)

// typeOrder is the order types are tried in when a schema allows several
// and does not say which comes first.
var typeOrder = []string{"object", "array", "string", "integer", "number", "boolean", "null"}

// candidate makes a value for flat, the schemas that apply, choices made:
// the const, else the first enum value all accept, else a value of the
// first type they allow.
func (g *generator) candidate(flat []sub, depth int) (any, error) {
	for _, s := range flat {
		if c, ok := s.s.(*object).get("const"); ok {
			return c, nil
		}
	}
	for _, s := range flat {
		if enum := s.s.(*object).array("enum"); enum != nil {
			if v, ok := g.unusedString(flat, enum); ok {
				return v, nil
			}
			return g.firstAccepted(flat, enum)
		}
	}
	switch pickType(flat) {
	case "object":
		return g.object(flat, depth)
	case "array":
		return g.array(flat, depth)
	case "string":
		if s, ok := g.distinctString(flat); ok {
			return s, nil
		}
		return stringFor(flat)
	case "integer":
		return numberFor(flat, true)
	case "number":
		return numberFor(flat, false)
	case "boolean":
		return false, nil
	}
	return nil, nil
}

// firstAccepted returns the first of values every schema of flat accepts.
func (g *generator) firstAccepted(flat []sub, values []any) (any, error) {
	for _, v := range values {
		if g.accepts(flat, v) == nil {
			return v, nil
		}
	}
	return nil, errors.New("no enum value satisfies every schema that applies")
}

// pickType returns the type a value is made of: the first that every
// typed schema of flat allows (integer when one says number and another
// integer), not null when another is allowed; without a type, the one
// the keywords present suggest.
func pickType(flat []sub) string {
	var allowed []string
	typed := false
	for _, s := range flat {
		ts := typesOf(s.s.(*object))
		if ts == nil {
			continue
		}
		if slices.Contains(ts, "number") && !slices.Contains(ts, "integer") {
			ts = append(ts, "integer")
		}
		if !typed {
			allowed, typed = ts, true
			continue
		}
		allowed = slices.DeleteFunc(allowed, func(t string) bool { return !slices.Contains(ts, t) })
	}
	if !typed {
		return suggestedType(flat)
	}
	for _, t := range allowed {
		if t != "null" {
			return t
		}
	}
	if slices.Contains(allowed, "null") {
		return "null"
	}
	return ""
}

// typesOf returns the types schema o names, nil when it names none.
func typesOf(o *object) []string {
	v, _ := o.get("type")
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, item := range t {
			if s, ok := item.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// suggestedKeywords say which type an untyped schema is about.
var suggestedKeywords = map[string][]string{
	"object": {"properties", "required", "additionalProperties", "minProperties", "patternProperties"},
	"array":  {"items", "prefixItems", "minItems", "contains"},
	"string": {"minLength", "maxLength", "pattern", "format"},
	"number": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
}

// suggestedType returns the type the keywords of flat suggest, "null"
// when none does (any value is allowed, and null is the smallest).
func suggestedType(flat []sub) string {
	for _, t := range typeOrder {
		for _, s := range flat {
			for _, key := range suggestedKeywords[t] {
				if s.s.(*object).has(key) {
					return t
				}
			}
		}
	}
	return "null"
}
