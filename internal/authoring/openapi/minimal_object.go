package openapi

import (
	"regexp"
	"slices"
)

// object makes the object flat describes: its required members (and
// those dependentRequired brings), then optional ones up to
// minProperties, in the order the properties are declared.
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
	addDependencies(flat, want, &names)
	out := &object{}
	for _, name := range names {
		if !want[name] {
			continue
		}
		v, err := g.instance(memberSchemas(flat, name), map[string]bool{}, depth+1)
		if err != nil {
			return nil, err
		}
		out.set(name, v)
	}
	return out, nil
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
// minContains of them matching contains), prefixItems first.
func (g *generator) array(flat []sub, depth int) (any, error) {
	n, need := 0, 0
	var contains []sub
	for _, s := range flat {
		o := s.s.(*object)
		n = max(n, intOf(o, "minItems"))
		if c, ok := o.get("contains"); ok {
			contains = append(contains, sub{childPointer(s.ptr, "contains"), c})
			need = max(need, 1, intOf(o, "minContains"))
		}
	}
	n = max(n, need)
	out := make([]any, 0, n)
	for i := range n {
		schemas := itemSchemas(flat, i)
		if i < need {
			schemas = append(schemas, contains...)
		}
		v, err := g.instance(schemas, map[string]bool{}, depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
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
