package scaffold

import (
	"fmt"
	"slices"
	"strings"
)

// splitPointer returns the unescaped tokens of an RFC 6901 pointer ("" is
// none).
func splitPointer(ptr string) ([]string, error) {
	if ptr == "" {
		return nil, nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, fmt.Errorf("%q is not a JSON pointer: it must be empty or start with /", ptr)
	}
	toks := strings.Split(ptr[1:], "/")
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks, nil
}

// joinPointer writes tokens as an RFC 6901 pointer.
func joinPointer(toks []string) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteString("/" + strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// schemaDoc is a schema document with its root, for resolving its local
// $refs.
type schemaDoc struct {
	root *object
}

// resolve follows s's local $ref ("#/$defs/Name"), if any, and returns the
// schema it names.
func (d schemaDoc) resolve(s *object) *object {
	for range 64 { // a chain of refs that long is a loop
		ref, ok := s.get("$ref")
		if !ok {
			return s
		}
		r, _ := ref.(string)
		toks, err := splitPointer(strings.TrimPrefix(r, "#"))
		if err != nil || !strings.HasPrefix(r, "#") {
			return s
		}
		next := d.at(toks)
		if next == nil {
			return s
		}
		s = next
	}
	return s
}

// at returns the object at toks of the document, nil when there is none.
func (d schemaDoc) at(toks []string) *object {
	var v any = d.root
	for _, t := range toks {
		switch x := v.(type) {
		case *object:
			v, _ = x.get(t)
		default:
			return nil
		}
	}
	o, _ := v.(*object)
	return o
}

// member returns the subschema of s for member name, and whether s
// requires it: from its properties, or those of the parts of its allOf
// (required there too), or of the first anyOf or oneOf branch that
// declares it (required only if that branch says so, and then only
// maybe: the answer may take another branch).
func (d schemaDoc) member(s *object, name string) (sub *object, required bool) {
	s = d.resolve(s)
	if props, ok := s.get("properties"); ok {
		if p, ok := props.(*object); ok {
			if v, ok := p.get(name); ok {
				sub, _ = v.(*object)
			}
		}
	}
	if sub != nil {
		return sub, requires(s, name)
	}
	if parts, ok := s.get("allOf"); ok {
		for _, part := range asObjects(parts) {
			if sub, req := d.member(part, name); sub != nil {
				return sub, req || requires(s, name)
			}
		}
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		parts, _ := s.get(key)
		for _, part := range asObjects(parts) {
			if sub, _ := d.member(part, name); sub != nil {
				return sub, false
			}
		}
	}
	return nil, false
}

// items returns the subschema of s's array elements, nil when it names
// none.
func (d schemaDoc) items(s *object) *object {
	s = d.resolve(s)
	if v, ok := s.get("items"); ok {
		o, _ := v.(*object)
		return o
	}
	return nil
}

// walk returns the subschema at toks of the answer ("*" an array's
// elements) and whether every step of it is required.
func (d schemaDoc) walk(toks []string) (*object, bool, error) {
	s, required := d.root, true
	for i, t := range toks {
		var next *object
		if t == "*" {
			next = d.items(s)
		} else {
			var req bool
			next, req = d.member(s, t)
			required = required && req
		}
		if next == nil {
			return nil, false, fmt.Errorf("the schema declares nothing at %s", joinPointer(toks[:i+1]))
		}
		s = next
	}
	return d.resolve(s), required, nil
}

// requires reports whether schema s lists name in its "required".
func requires(s *object, name string) bool {
	req, _ := s.get("required")
	list, _ := req.([]any)
	return slices.Contains(list, any(name))
}

// asObjects returns the objects of a JSON array value.
func asObjects(v any) []*object {
	list, _ := v.([]any)
	var out []*object
	for _, x := range list {
		if o, ok := x.(*object); ok {
			out = append(out, o)
		}
	}
	return out
}

// plainString reports whether s takes any string of a canary's length:
// a string type, and no pattern, format, enum, const or maxLength below
// it, so that a canary there keeps the answer valid.
func plainString(s *object) bool {
	if s == nil {
		return false
	}
	switch t, _ := s.get("type"); t := t.(type) {
	case string:
		if t != "string" {
			return false
		}
	case []any:
		if !slices.Contains(t, any("string")) {
			return false
		}
	default:
		return false
	}
	for _, k := range []string{"pattern", "format", "enum", "const", "$ref", "allOf", "anyOf", "oneOf", "not", "contentEncoding"} {
		if _, ok := s.get(k); ok {
			return false
		}
	}
	if n, ok := number(s, "maxLength"); ok && n < canaryRoom {
		return false
	}
	if n, ok := number(s, "minLength"); ok && n > canaryMin {
		return false
	}
	return true
}

// canaryRoom and canaryMin bound the length of a rendered canary (20
// characters): a maxLength of at least canaryRoom, a minLength of at most
// canaryMin take it.
const (
	canaryRoom = 24
	canaryMin  = 20
)

// number returns the integer keyword k of s.
func number(s *object, k string) (int64, bool) {
	v, ok := s.get(k)
	if !ok {
		return 0, false
	}
	var n int64
	if _, err := fmt.Sscan(fmt.Sprint(v), &n); err != nil {
		return 0, false
	}
	return n, true
}

// candidates returns the pointers of the members outside any list that
// are named like one of args (a binding candidate) and of those whose
// format is date-time (a freshness candidate), at most six levels deep.
func (d schemaDoc) candidates(args []string) (bound, stamps []string) {
	var visit func(s *object, toks []string)
	visit = func(s *object, toks []string) {
		if s == nil || len(toks) > 6 {
			return
		}
		s = d.resolve(s)
		if f, _ := s.get("format"); f == "date-time" && len(toks) > 0 {
			stamps = append(stamps, joinPointer(toks))
		}
		for _, name := range d.memberNames(s) {
			sub, _ := d.member(s, name)
			at := append(slices.Clone(toks), name)
			if slices.ContainsFunc(args, func(a string) bool { return namedLike(name, a) }) {
				bound = append(bound, joinPointer(at))
			}
			visit(sub, at)
		}
	}
	visit(d.root, nil)
	return bound, stamps
}

// namedLike reports whether member name may be argument arg: the same
// name, or one ends in "_" and the other ("issue_number", "number").
func namedLike(name, arg string) bool {
	name, arg = strings.ToLower(name), strings.ToLower(arg)
	return name == arg || strings.HasSuffix(arg, "_"+name) || strings.HasSuffix(name, "_"+arg)
}

// memberNames returns the names of the properties of s and of its
// allOf, anyOf and oneOf parts, in order, once each.
func (d schemaDoc) memberNames(s *object) []string {
	var out []string
	add := func(s *object) {
		props, _ := d.resolve(s).get("properties")
		if p, ok := props.(*object); ok {
			for _, k := range p.keys {
				if !slices.Contains(out, k) {
					out = append(out, k)
				}
			}
		}
	}
	add(s)
	for _, key := range []string{"allOf", "anyOf", "oneOf"} {
		parts, _ := s.get(key)
		for _, part := range asObjects(parts) {
			add(part)
		}
	}
	return out
}
