package openapi

import (
	"slices"
	"strconv"
	"strings"
)

// applyDiscriminator expresses a 3.x discriminator in Draft 2020-12: each
// oneOf (or anyOf) branch gets the discriminating property constrained to
// the value(s) that select it, from the mapping or, for a branch the
// mapping does not name, the name of the component it refers to. The
// keyword itself is dropped; a Note tells what could not be expressed.
func (k *keywords) applyDiscriminator() {
	if k.disc == nil {
		return
	}
	p := *k.disc
	if k.c.dia == oas2 {
		k.note(p, "a Swagger 2.0 discriminator (the allOf form) has no Draft 2020-12 counterpart: dropped")
		return
	}
	name := stringOf(p.val, "propertyName")
	group := "oneOf"
	if _, ok := k.groups[group]; !ok {
		group = "anyOf"
	}
	branches, ok := k.groups[group]
	switch {
	case name == "":
		k.note(p, "discriminator without propertyName: dropped")
		return
	case !ok:
		k.note(p, "discriminator without oneOf or anyOf (the allOf form) is not expressed: dropped")
		return
	}
	values, order := k.discMapping(p)
	k.constrainBranches(name, group, branches, values)
	for _, key := range order {
		if !slices.ContainsFunc(branches, func(r result) bool { return r.ref == key }) {
			first, _ := values[key][0].(string)
			k.c.notes.add(k.at.child("discriminator").child("mapping").child(first), "the mapping names a schema that is no branch of %s: not expressed", group)
		}
	}
}

// constrainBranches constrains each branch to its discriminator values.
func (k *keywords) constrainBranches(name, group string, branches []result, values map[string][]any) {
	list := k.out.array(group)
	for i, br := range branches {
		vals := values[br.ref]
		if len(vals) == 0 {
			vals = implicitValue(br.ref)
		}
		o, isObject := list[i].(*object)
		at := k.at.child(group).child(strconv.Itoa(i))
		switch {
		case len(vals) == 0:
			k.c.notes.add(at, "branch has no discriminator value (the mapping does not name it and it is no component schema): not constrained")
		case !isObject:
			k.c.notes.add(at, "branch is a boolean schema: not constrained by the discriminator")
		case !constrain(o, name, vals):
			k.c.notes.add(at, "the branch's %s cannot take its discriminator value %v: not constrained", name, vals)
		default:
			k.memberProps = true
		}
	}
}

// implicitValue returns the value that selects a branch the mapping does
// not name: the name of the component schema it refers to.
func implicitValue(key string) []any {
	const prefix = "#/components/schemas/"
	i := strings.IndexByte(key, '#')
	if i < 0 || !strings.HasPrefix(key[i:], prefix) || strings.Count(key[i+len(prefix):], "/") > 0 {
		return nil
	}
	return []any{lastToken(key[i+1:])}
}

// isReference tells a mapping value that is a reference from a schema
// name.
func isReference(v string) bool {
	if strings.ContainsAny(v, "#/") {
		return true
	}
	for _, ext := range []string{".yaml", ".yml", ".json"} {
		if strings.HasSuffix(v, ext) {
			return true
		}
	}
	return false
}

// discMapping resolves the discriminator's mapping: target key to its
// values, and the targets in mapping order. A value that cannot be
// resolved is noted.
func (k *keywords) discMapping(p pair) (map[string][]any, []string) {
	values := map[string][]any{}
	var order []string
	m := lookup(p.val, "mapping")
	if m == nil {
		return values, nil
	}
	at := k.at.child("discriminator").child("mapping")
	ps, err := pairs(m, at.String())
	if err != nil {
		k.c.notes.add(at, "mapping is not an object: ignored")
		return values, nil
	}
	for _, e := range ps {
		ref, _ := scalar(e.val)
		if !isReference(ref) {
			ref = "#/components/schemas/" + ref
		}
		target, _, err := k.c.res.resolve(at.child(e.key), ref)
		if err != nil {
			k.c.notes.add(at.child(e.key), "mapping value cannot be resolved: ignored: %v", err)
			continue
		}
		key := target.key()
		if _, seen := values[key]; !seen {
			order = append(order, key)
		}
		values[key] = append(values[key], e.key)
	}
	return values, order
}

// constrain makes branch o require member name with one of vals; false
// when the branch's own schema of name already excludes them all.
func constrain(o *object, name string, vals []any) bool {
	props := o.child("properties")
	if props == nil {
		props = &object{}
		o.set("properties", props)
	}
	prop, declared := props.get(name)
	switch s := prop.(type) {
	case *object:
		if !narrow(s, vals) {
			return false
		}
		sortKeywords(s)
	case bool:
		if !s {
			return false
		}
		props.set(name, valueSchema(vals))
	default:
		if declared {
			return false
		}
		props.set(name, valueSchema(vals))
	}
	if req := o.array("required"); !slices.Contains(req, any(name)) {
		o.set("required", append(slices.Clip(req), name))
	}
	sortKeywords(o)
	return true
}

// narrow adds vals to the property schema s as a const or enum, or
// intersects them with the ones it has.
func narrow(s *object, vals []any) bool {
	if c, ok := s.get("const"); ok {
		return slices.Contains(vals, c)
	}
	if enum, ok := s.get("enum"); ok {
		list, _ := enum.([]any)
		var kept []any
		for _, v := range list {
			if slices.Contains(vals, v) {
				kept = append(kept, v)
			}
		}
		if len(kept) == 0 {
			return false
		}
		s.set("enum", kept)
		return true
	}
	for _, m := range valueSchema(vals).members {
		s.set(m.key, m.val)
	}
	return true
}

// valueSchema returns {"const": v} for one value, {"enum": vals} for more.
func valueSchema(vals []any) *object {
	o := &object{}
	if len(vals) == 1 {
		o.set("const", vals[0])
	} else {
		o.set("enum", vals)
	}
	return o
}
