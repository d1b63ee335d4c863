package scaffold

import (
	"fmt"
	"slices"
)

// narrowSchema returns schema s of one list element, with only what tails
// keep: the members they name, each narrowed to the rest of its tails. A
// tail of no token keeps the element whole.
func (d schemaDoc) narrowSchema(s *object, tails [][]string, at []string) (*object, error) {
	s = d.resolve(s)
	if slices.ContainsFunc(tails, func(t []string) bool { return len(t) == 0 }) {
		return s, nil
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if _, ok := s.get(k); ok {
			return nil, fmt.Errorf("the element schema at %s composes with %s: keep the element whole (%s) or a list that is not composed", joinPointer(at), k, joinPointer(at))
		}
	}
	props, _ := s.get("properties")
	po, _ := props.(*object)
	if po == nil {
		return nil, fmt.Errorf("the element schema at %s declares no properties to keep", joinPointer(at))
	}
	out := clone(s).(*object)
	kept := newObject()
	for _, name := range firstTokens(tails) {
		v, ok := po.get(name)
		sub, _ := v.(*object)
		if !ok || sub == nil {
			return nil, fmt.Errorf("the schema declares nothing at %s", joinPointer(append(slices.Clone(at), name)))
		}
		n, err := d.narrowSchema(sub, restOf(tails, name), append(slices.Clone(at), name))
		if err != nil {
			return nil, err
		}
		kept.set(name, clone(n))
	}
	out.set("properties", kept)
	if req, ok := s.get("required"); ok {
		var still []any
		for _, r := range req.([]any) {
			if name, _ := r.(string); kept.vals[name] != nil {
				still = append(still, r)
			}
		}
		out.del("required")
		if len(still) > 0 {
			out.set("required", still)
		}
	}
	return out, nil
}

// narrowValue returns instance v of one list element with only what tails
// keep.
func narrowValue(v any, tails [][]string) any {
	o, ok := v.(*object)
	if !ok || slices.ContainsFunc(tails, func(t []string) bool { return len(t) == 0 }) {
		return v
	}
	out := newObject()
	for _, k := range o.keys {
		if slices.Contains(firstTokens(tails), k) {
			out.set(k, narrowValue(o.vals[k], restOf(tails, k)))
		}
	}
	return out
}

// firstTokens returns the distinct first tokens of tails, in order.
func firstTokens(tails [][]string) []string {
	var out []string
	for _, t := range tails {
		if len(t) > 0 && !slices.Contains(out, t[0]) {
			out = append(out, t[0])
		}
	}
	return out
}

// restOf returns what follows name in each tail that starts with it.
func restOf(tails [][]string, name string) [][]string {
	var out [][]string
	for _, t := range tails {
		if len(t) > 0 && t[0] == name {
			out = append(out, t[1:])
		}
	}
	return out
}
