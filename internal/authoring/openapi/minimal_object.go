package openapi

import (
	"regexp"
	"slices"
)

// object makes the object flat describes: its required members (and
// those dependentRequired brings), then optional ones up to
// minProperties, in the order the properties are declared; with them,
// the members on the way to a kept pointer, and in a full instance
// every other declared member its schema lets it have.
func (g *generator) object(flat []sub, depth int) (any, error) {
	var names []string
	want := map[string]bool{}
	for _, s := range flat {
		if props := s.s.(*object).child("properties"); props != nil {
			for _, m := range props.members {
				names = appendNew(names, m.key)
			}
		}
	}
	minProps := 0
	for _, s := range flat {
		o := s.s.(*object)
		for _, r := range o.array("required") {
			if name, ok := r.(string); ok {
				want[name] = true
				names = appendNew(names, name)
			}
		}
		minProps = max(minProps, intOf(o, "minProperties"))
	}
	for _, name := range names {
		if len(want) >= minProps {
			break
		}
		want[name] = true
	}
	for _, name := range names {
		want[name] = want[name] || g.keepsMember(name)
	}
	addDependencies(flat, want, &names)
	values := map[string]any{}
	for _, name := range names {
		if !want[name] {
			continue
		}
		v, err := g.member(flat, name, depth)
		if err != nil {
			return nil, err
		}
		values[name] = v
	}
	if !g.opts.full || depth >= maxFullDepth {
		return ordered(names, values), nil
	}
	return g.fullObject(flat, names, values, depth), nil
}

// fullObject adds to values, the members an object must have, every
// other declared member that can be made and does not refer back to a
// schema making an enclosing value, and returns the object; when the
// object with them all is refused (maxProperties, dependentSchemas,
// oneOf), each is added only if the object stays accepted.
func (g *generator) fullObject(flat []sub, names []string, values map[string]any, depth int) *object {
	var optional []string
	all := map[string]any{}
	for k, v := range values {
		all[k] = v
	}
	for _, name := range names {
		if _, ok := values[name]; ok || g.recursive(memberSchemas(flat, name)) {
			continue
		}
		if v, err := g.member(flat, name, depth); err == nil {
			all[name] = v
			optional = append(optional, name)
		}
	}
	out := ordered(names, all)
	if len(optional) == 0 || g.accepts(flat, out) == nil {
		return out
	}
	for _, name := range optional {
		values[name] = all[name]
		if g.accepts(flat, ordered(names, values)) != nil {
			delete(values, name)
		}
	}
	return ordered(names, values)
}

// member makes member name of the object flat describes.
func (g *generator) member(flat []sub, name string, depth int) (any, error) {
	return g.within(name, func() (any, error) {
		return g.instance(memberSchemas(flat, name), map[string]bool{}, depth+1)
	})
}

// ordered returns the object of values, its members in the order of
// names.
func ordered(names []string, values map[string]any) *object {
	out := &object{}
	for _, name := range names {
		if v, ok := values[name]; ok {
			out.set(name, v)
		}
	}
	return out
}

// recursive reports whether conj refers back to a schema making an
// enclosing value (through $refs and allOf), or cannot be read: a full
// instance leaves such a member or element out, so that recursion ends.
func (g *generator) recursive(conj []sub) bool {
	flat, _, err := g.flatten(conj, map[string]bool{})
	if err != nil {
		return true
	}
	for _, s := range flat {
		if g.active[s.ptr] > 0 {
			return true
		}
	}
	return false
}

// addDependencies adds the members dependentRequired asks for, until
// nothing changes.
func addDependencies(flat []sub, want map[string]bool, names *[]string) {
	for changed := true; changed; {
		changed = false
		for _, s := range flat {
			deps := s.s.(*object).child("dependentRequired")
			if deps == nil {
				continue
			}
			for _, m := range deps.members {
				list, _ := m.val.([]any)
				for _, d := range list {
					if name, ok := d.(string); ok && want[m.key] && !want[name] {
						want[name], changed = true, true
						*names = appendNew(*names, name)
					}
				}
			}
		}
	}
}

// memberSchemas returns the schemas of flat that apply to member name:
// its properties entries, the patternProperties it matches, or else the
// additionalProperties.
func memberSchemas(flat []sub, name string) []sub {
	var out []sub
	for _, s := range flat {
		o := s.s.(*object)
		matched := false
		if props := o.child("properties"); props != nil {
			if v, ok := props.get(name); ok {
				out = append(out, sub{childPointer(childPointer(s.ptr, "properties"), name), v})
				matched = true
			}
		}
		if pats := o.child("patternProperties"); pats != nil {
			for _, m := range pats.members {
				if re, err := regexp.Compile(m.key); err == nil && re.MatchString(name) {
					out = append(out, sub{childPointer(childPointer(s.ptr, "patternProperties"), m.key), m.val})
					matched = true
				}
			}
		}
		if v, ok := o.get("additionalProperties"); ok && !matched {
			out = append(out, sub{childPointer(s.ptr, "additionalProperties"), v})
		}
	}
	return out
}

// array makes the array flat describes: minItems items (at least
// minContains of them matching contains), prefixItems first; one item
// at least when the items are on the way to a kept pointer, or in a full
// instance when the schema allows one that does not refer back to a
// schema making an enclosing value.
func (g *generator) array(flat []sub, depth int) (any, error) {
	n, need := 0, 0
	noItems := false
	var contains []sub
	for _, s := range flat {
		o := s.s.(*object)
		n = max(n, intOf(o, "minItems"))
		if c, ok := o.get("contains"); ok {
			contains = append(contains, sub{childPointer(s.ptr, "contains"), c})
			need = max(need, 1, intOf(o, "minContains"))
		}
		noItems = noItems || o.has("maxItems") && intOf(o, "maxItems") == 0
	}
	n = max(n, need)
	out := make([]any, 0, max(n, 1))
	for i := range n {
		v, err := g.item(flat, i, i < need, contains, depth)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if n > 0 || noItems {
		return out, nil
	}
	if g.keepsItem() {
		v, err := g.item(flat, 0, false, nil, depth)
		if err != nil {
			return nil, err
		}
		return append(out, v), nil
	}
	if g.opts.full && depth < maxFullDepth && !g.recursive(itemSchemas(flat, 0)) {
		if v, err := g.item(flat, 0, false, nil, depth); err == nil && g.accepts(flat, []any{v}) == nil {
			out = append(out, v)
		}
	}
	return out, nil
}

// item makes item i of the array flat describes, one contains accepts
// too when matching is set.
func (g *generator) item(flat []sub, i int, matching bool, contains []sub, depth int) (any, error) {
	schemas := itemSchemas(flat, i)
	if matching {
		schemas = append(schemas, contains...)
	}
	return g.within("*", func() (any, error) {
		return g.instance(schemas, map[string]bool{}, depth+1)
	})
}

// itemSchemas returns the schemas of flat that apply to item i.
func itemSchemas(flat []sub, i int) []sub {
	var out []sub
	for _, s := range flat {
		o := s.s.(*object)
		prefix := o.array("prefixItems")
		if i < len(prefix) {
			out = append(out, sub{childPointer(childPointer(s.ptr, "prefixItems"), itoa(i)), prefix[i]})
		} else if v, ok := o.get("items"); ok {
			out = append(out, sub{childPointer(s.ptr, "items"), v})
		}
	}
	return out
}

// appendNew appends name to names unless it is there.
func appendNew(names []string, name string) []string {
	if slices.Contains(names, name) {
		return names
	}
	return append(names, name)
}
