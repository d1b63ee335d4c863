package scaffold

import (
	"slices"

	"github.com/toolcert/toolcert/protocol"
)

// dataSchema returns the closed schema of the agent's data: one property
// per kept field, its schema the vendor's at the field's pointer, and the
// fields an answer may lack (optional in tool.json, not required here);
// every other field is required.
func (d schemaDoc) dataSchema(p *projection) (*object, []field, error) {
	props := newObject()
	var required []any
	var mayLack []field
	for _, f := range p.fields {
		sub, req, err := d.walk(f.pointer)
		if err != nil {
			return nil, nil, err
		}
		props.set(f.name, clone(sub))
		if !req || d.nullOnTheWay(f.pointer) {
			mayLack = append(mayLack, f)
			continue
		}
		required = append(required, f.name)
	}
	data := newObject("type", "object", "properties", props)
	if len(required) > 0 {
		data.set("required", required)
	}
	data.set("additionalProperties", false)
	seal(data, false)
	return data, mayLack, nil
}

// nullOnTheWay reports whether a member on the way to toks, not the last,
// may be null: then the member at toks is missing from such an answer.
func (d schemaDoc) nullOnTheWay(toks []string) bool {
	for i := 1; i < len(toks); i++ {
		if s, _, err := d.walk(toks[:i]); err == nil && allowsNull(d, s) {
			return true
		}
	}
	return false
}

// allowsNull reports whether schema s lets null through: its type or
// enum names it, or an anyOf or oneOf branch allows null only.
func allowsNull(d schemaDoc, s *object) bool {
	if t, _ := s.get("type"); t == "null" || containsAny(t, "null") {
		return true
	}
	if e, _ := s.get("enum"); containsAny(e, nil) {
		return true
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		parts, _ := s.get(key)
		for _, p := range asObjects(parts) {
			if t, _ := d.resolve(p).get("type"); t == "null" {
				return true
			}
		}
	}
	return false
}

// containsAny reports whether v is a JSON array holding x.
func containsAny(v any, x any) bool {
	list, ok := v.([]any)
	return ok && slices.Contains(list, x)
}

// contract returns the agent contract of tool: the result envelope of
// docs/protocol.md, its data closed to data, $defs the vendor schema's
// (its local refs stay valid: both are at the root).
func contract(tool string, data *object, defs any) *object {
	env := func(outcome string, kv ...any) *object {
		props := newObject(
			"tool", newObject("const", tool),
			"request_id", newObject("type", "string", "pattern", protocol.RequestIDPattern),
			"outcome", newObject("const", outcome),
		)
		for i := 0; i+1 < len(kv); i += 2 {
			props.set(kv[i].(string), kv[i+1])
		}
		return newObject("type", "object", "properties", props,
			"required", []any{"tool", "request_id", "outcome", kv[0]}, "additionalProperties", false)
	}
	codes := []any{}
	for _, c := range protocol.Codes() {
		codes = append(codes, string(c))
	}
	failure := newObject("type", "object", "properties", newObject(
		"code", newObject("enum", codes),
		"retryable", newObject("type", "boolean"),
	), "required", []any{"code", "retryable"}, "additionalProperties", false)
	c := newObject(
		"$schema", protocol.DraftURI,
		"title", tool+" agent contract: the envelope the agent receives",
		"oneOf", []any{env(protocol.OutcomeSuccess, "data", data), env(protocol.OutcomeFailure, "error", failure)},
	)
	if defs != nil {
		c.set("$defs", clone(defs))
	}
	return c
}

// seal closes every object schema under v that declares properties and
// is not closed yet, nor sealed by an enclosing unevaluatedProperties:
// the agent's side is closed even when the vendor's is not (--open).
func seal(v any, sealed bool) {
	switch t := v.(type) {
	case []any:
		for _, x := range t {
			seal(x, false)
		}
	case *object:
		_, declares := t.get("properties")
		ap, _ := t.get("additionalProperties")
		up, _ := t.get("unevaluatedProperties")
		if declares && !sealed && ap != false && up != false {
			t.set("unevaluatedProperties", false)
			up = false
		}
		for _, k := range t.keys {
			switch k {
			case "enum", "const", "examples", "default":
				continue
			case "allOf", "anyOf", "oneOf":
				for _, x := range asObjects(t.vals[k]) {
					seal(x, sealed || up == false)
				}
				continue
			}
			seal(t.vals[k], false)
		}
	}
}
