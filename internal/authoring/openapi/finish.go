package openapi

import (
	"slices"
)

// finish applies what needs the whole schema: type and nullable, 2.0/3.0
// boolean exclusive bounds, format, examples, the discriminator, closing
// and the keyword order.
func (k *keywords) finish(nullable bool) result {
	k.applyTypes(nullable)
	k.applyExclusive()
	k.applyFormat()
	if len(k.examples) > 0 {
		k.out.set("examples", k.examples)
	}
	k.applyDiscriminator()
	r := k.close()
	sortKeywords(k.out)
	return r
}

// applyTypes writes type, with "null" added for a nullable schema; a
// nullable enum gets null among its values, a nullable const becomes an
// enum of it and null.
func (k *keywords) applyTypes(nullable bool) {
	types := k.types
	if nullable && len(types) > 0 && !slices.Contains(types, "null") {
		types = append(slices.Clip(types), "null")
	}
	switch len(types) {
	case 0:
	case 1:
		k.out.set("type", types[0])
	default:
		list := make([]any, len(types))
		for i, t := range types {
			list[i] = t
		}
		k.out.set("type", list)
	}
	if !nullable {
		return
	}
	if enum, ok := k.out.get("enum"); ok {
		if list, isList := enum.([]any); isList && !slices.Contains(list, nil) {
			k.out.set("enum", append(slices.Clip(list), nil))
		}
	}
	if c, ok := k.out.get("const"); ok && c != nil && !k.out.has("enum") {
		k.out.del("const")
		k.out.set("enum", []any{c, nil})
	}
}

// applyExclusive folds a boolean exclusiveMinimum/Maximum into the bound
// it qualifies: {minimum: 0, exclusiveMinimum: true} is
// {exclusiveMinimum: 0}.
func (k *keywords) applyExclusive() {
	for _, p := range k.exclusive {
		b, _ := isBool(p.val)
		if !b {
			continue
		}
		bound := "minimum"
		if p.key == "exclusiveMaximum" {
			bound = "maximum"
		}
		v, ok := k.out.get(bound)
		if !ok {
			k.note(p, "%s: true without %s: ignored", p.key, bound)
			continue
		}
		k.out.del(bound)
		k.out.set(p.key, v)
	}
}

// close decides closing: a schema no parent closes gets
// "unevaluatedProperties": false when it or its members declare
// properties; a member reports them to its parent instead.
func (k *keywords) close() result {
	r := result{v: k.out}
	if k.c.open {
		return r
	}
	needs := k.out.has("properties") || k.memberProps
	if k.cx.member {
		r.props = needs
		return r
	}
	if needs && !k.addlFalse && !k.out.has("unevaluatedProperties") {
		k.out.set("unevaluatedProperties", false)
	}
	if !needs && k.freeForm() {
		k.c.notes.add(k.at, "free-form object: no properties are declared, so members of any name are let through")
	}
	return r
}

// freeForm reports an object type that declares no members and does not
// say how others are handled.
func (k *keywords) freeForm() bool {
	for _, key := range []string{"additionalProperties", "unevaluatedProperties", "patternProperties", "allOf", "anyOf", "oneOf", "$ref"} {
		if k.out.has(key) {
			return false
		}
	}
	object := false
	for _, t := range k.types {
		switch t {
		case "object":
			object = true
		case "null":
		default:
			return false
		}
	}
	return object
}
