package record

import (
	"fmt"
	"strings"

	"github.com/toolcert/toolcert/internal/judge"
)

// inferrer renders shapes as schemas, gathering an Inference for each
// thing it decides that the answers only suggested.
type inferrer struct {
	opts InferOptions
	infs []Inference
}

// place is where a shape sits: what its values are counted in ("answer"
// at the top, "item" under an array) and whether it is an object's
// member.
type place struct {
	noun   string
	member bool
}

// note adds an Inference at ptr.
func (in *inferrer) note(ptr, format string, args ...any) {
	in.infs = append(in.infs, Inference{Pointer: ptr, What: fmt.Sprintf(format, args...)})
}

// schema returns the schema of s, at ptr in the schema document.
func (in *inferrer) schema(s *shape, ptr string, pl place) node {
	switch len(s.kinds) {
	case 0:
		in.note(ptr, "only seen null (in %s): no other type is allowed", count(s.count, pl.noun))
		return node{{"type", "null"}}
	case 1:
		n := in.kindSchema(s.kinds[0], s, ptr, pl)
		if s.nulls > 0 {
			n = in.nullable(n, s, ptr, pl)
		}
		return n
	}
	return in.anyOf(s, ptr, pl)
}

// nullable returns n, the schema of the one other type s had, allowing
// null too.
func (in *inferrer) nullable(n node, s *shape, ptr string, pl place) node {
	if t, ok := n.get("type"); ok {
		n = n.set("type", []any{t, "null"})
	}
	if e, ok := n.get("enum"); ok {
		if values, ok := e.([]any); ok {
			n = n.set("enum", append(values, nil))
		}
	}
	in.nullNote(s, ptr, pl)
	return n
}

// nullNote notes that s allows null.
func (in *inferrer) nullNote(s *shape, ptr string, pl place) {
	in.note(ptr, "seen null in %d of %s: null is allowed", s.nulls, count(s.count, pl.noun))
}

// anyOf returns the schema of s, which had several types: one branch
// each.
func (in *inferrer) anyOf(s *shape, ptr string, pl place) node {
	var branches []node
	var seen []string
	for i, k := range s.kinds {
		branches = append(branches, in.kindSchema(k, s, fmt.Sprintf("%s/anyOf/%d", ptr, i), pl))
		seen = append(seen, fmt.Sprintf("%s in %d", typeName(k, s), s.seen(k)))
	}
	if s.nulls > 0 {
		branches = append(branches, node{{"type", "null"}})
		seen = append(seen, fmt.Sprintf("null in %d", s.nulls))
		in.nullNote(s, ptr, pl)
	}
	in.note(ptr, "conflicting types: %s of %s: anyOf of each", strings.Join(seen, ", "), count(s.count, pl.noun))
	return node{{"anyOf", branches}}
}

// typeName returns the schema type of kind k at s.
func typeName(k kind, s *shape) string {
	if k == kindNumber && s.num.fractional == 0 {
		return "integer"
	}
	return kindNames[k]
}

// kindSchema returns the schema of the values of kind k at s.
func (in *inferrer) kindSchema(k kind, s *shape, ptr string, pl place) node {
	switch k {
	case kindObject:
		return in.object(&s.obj, ptr, pl)
	case kindArray:
		return in.array(&s.arr, ptr)
	case kindString:
		return in.str(&s.str, ptr, pl)
	case kindNumber:
		return in.number(&s.num, ptr)
	}
	return node{{"type", "boolean"}}
}

// object returns the closed schema of the objects o: every member seen,
// required when every object had it.
func (in *inferrer) object(o *objectShape, ptr string, pl place) node {
	props := node{}
	required := []string{}
	for _, name := range o.names {
		at := ptr + "/properties/" + judge.EscapePointerToken(name)
		props = append(props, field{name, in.schema(o.members[name], at, place{noun: pl.noun, member: true})})
		if absent := o.count - o.present[name]; absent > 0 {
			in.note(at, "absent in %d of %s: not required", absent, count(o.count, pl.noun))
			continue
		}
		required = append(required, name)
	}
	n := node{{"type", "object"}, {"properties", props}}
	if len(required) > 0 {
		n = append(n, field{"required", required})
	}
	in.note(ptr, "closed: a member the answers never had is refused")
	return append(n, field{"additionalProperties", false})
}

// array returns the schema of the arrays a: their items merged, when
// any array had one.
func (in *inferrer) array(a *arrayShape, ptr string) node {
	n := node{{"type", "array"}}
	if a.items == nil {
		in.note(ptr, "only seen empty: the items are not described")
		return n
	}
	in.note(ptr, "longest seen: %s; no maxItems", count(a.longest, "item"))
	return append(n, field{"items", in.schema(a.items, ptr+"/items", place{noun: "item"})})
}

// str returns the schema of the strings s: a format every value had, or
// for a member that took few values, an enum (opts.Enum) or the hint of
// one.
func (in *inferrer) str(s *stringShape, ptr string, pl place) node {
	n := node{{"type", "string"}}
	name, what := s.formats.name()
	if name != "" {
		n = append(n, field{"format", name})
		in.note(ptr, "format %s: every value seen (%d) is %s", name, s.count, what)
	}
	if pl.member && name == "" && s.enumLike() {
		values := listValues(s.order)
		if in.opts.Enum {
			in.note(ptr, "enum of the values seen: %s; a value the answers never had is refused", values)
			return append(n, field{"enum", strings2any(s.order)})
		}
		in.note(ptr, "took only %s: %s; --enum would make it an enum", count(len(s.order), "distinct value"), values)
	}
	in.note(ptr, "longest seen: %s; no maxLength", count(s.longest, "character"))
	return n
}

// enumLike reports whether the strings s could be an enum: at most
// enumLimit distinct values, each seen in two answers or more (so a
// value repeated within one answer, such as the commit of two reviews of
// one pull, does not count twice).
func (s *stringShape) enumLike() bool {
	if s.overflow || len(s.order) == 0 || s.answers.n < 2 {
		return false
	}
	for _, v := range s.order {
		if s.values[v].n < 2 {
			return false
		}
	}
	return true
}

// strings2any returns values as a []any.
func strings2any(values []string) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

// number returns the schema of the numbers nm: integer when none had a
// fraction or an exponent.
func (in *inferrer) number(nm *numberShape, ptr string) node {
	if nm.fractional > 0 {
		return node{{"type", "number"}}
	}
	in.note(ptr, "integer: none of the %s seen has a fraction or an exponent", count(nm.count, "number"))
	return node{{"type", "integer"}}
}
