package openapi

import (
	"regexp"
	"strconv"

	"github.com/pb33f/go-yaml"
)

// group converts allOf, anyOf or oneOf: members the parent closes.
func (k *keywords) group(p pair) error {
	n := deref(p.val)
	if n.Kind != yaml.SequenceNode {
		k.note(p, "%s is not an array: dropped", p.key)
		return nil
	}
	var members []result
	for i, item := range n.Content {
		r, err := k.c.schema(k.at.child(p.key).child(strconv.Itoa(i)), item, ctx{member: true, allOf: p.key == "allOf", depth: k.cx.depth + 2})
		if err != nil {
			return err
		}
		members = append(members, r)
	}
	k.setGroup(p.key, members)
	return nil
}

// setGroup sets the members of allOf, anyOf or oneOf; allOf starts with
// k.pre.
func (k *keywords) setGroup(key string, members []result) {
	if key == "allOf" {
		members = append(append([]result{}, k.pre...), members...)
	}
	k.groups[key] = members
	values := make([]any, len(members))
	for i, m := range members {
		values[i] = m.v
		k.memberProps = k.memberProps || m.props
	}
	k.out.set(key, values)
}

// sub converts a keyword holding one subschema; closedAbove tells that
// the parent closes what it declares (then, else).
func (k *keywords) sub(p pair, cx ctx, closedAbove bool) error {
	r, err := k.c.schema(k.at.child(p.key), p.val, cx)
	if err != nil {
		return err
	}
	if r.props && !k.c.open {
		if closedAbove {
			k.memberProps = true
			k.note(p, "%s is closed by its parent's unevaluatedProperties, which a check of allOf, anyOf and oneOf only does not follow", p.key)
		} else {
			k.note(p, "%s declares properties and stays open: closing it would change what the schema matches", p.key)
		}
	}
	k.out.set(p.key, r.v)
	return nil
}

// schemaMap converts properties, patternProperties or dependentSchemas.
func (k *keywords) schemaMap(p pair) error {
	ps, err := pairs(p.val, k.at.child(p.key).String())
	if err != nil {
		return err
	}
	out := &object{}
	inPlace := p.key == "dependentSchemas"
	for _, m := range ps {
		if p.key == "patternProperties" {
			if _, err := regexp.Compile(m.key); err != nil {
				k.c.notes.add(k.at.child(p.key).child(m.key), "pattern is not a regular expression the validator runs (RE2): dropped: %v", err)
				continue
			}
		}
		r, err := k.c.schema(k.at.child(p.key).child(m.key), m.val, ctx{member: inPlace, depth: k.cx.depth + 2})
		if err != nil {
			return err
		}
		k.memberProps = k.memberProps || (inPlace && r.props)
		out.set(m.key, r.v)
	}
	k.out.set(p.key, out)
	return nil
}

// items converts items: one schema, or the tuple form of older drafts,
// which becomes prefixItems.
func (k *keywords) items(p pair) error {
	if deref(p.val).Kind == yaml.SequenceNode {
		k.note(p, "items as an array is the tuple form of older drafts: written as prefixItems")
		return k.tuple(p, "prefixItems")
	}
	return k.sub(p, ctx{depth: k.cx.depth + 1}, false)
}

// tuple converts an array of item schemas into key.
func (k *keywords) tuple(p pair, key string) error {
	n := deref(p.val)
	if n.Kind != yaml.SequenceNode {
		k.note(p, "%s is not an array: dropped", p.key)
		return nil
	}
	var items []any
	for i, item := range n.Content {
		r, err := k.c.schema(k.at.child(p.key).child(strconv.Itoa(i)), item, ctx{depth: k.cx.depth + 2})
		if err != nil {
			return err
		}
		items = append(items, r.v)
	}
	k.out.set(key, items)
	return nil
}

// openness converts additionalProperties or unevaluatedProperties: false
// stays, and so do true and a schema (a map), noted as open by design.
func (k *keywords) openness(p pair) error {
	if b, ok := isBool(p.val); ok {
		k.out.set(p.key, b)
		if p.key == "additionalProperties" && !b {
			k.addlFalse = true
		}
		if b && !k.c.open {
			k.note(p, "free-form object: %s: true lets any member through, and stays", p.key)
		}
		return nil
	}
	r, err := k.c.schema(k.at.child(p.key), p.val, ctx{depth: k.cx.depth + 1})
	if err != nil {
		return err
	}
	if !k.c.open {
		k.note(p, "map: %s is a schema, so members of any name are let through (open by design)", p.key)
	}
	k.out.set(p.key, r.v)
	return nil
}
