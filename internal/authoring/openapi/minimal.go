package openapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Generation limits.
const (
	maxGenDepth  = 128  // nesting of generated values
	maxGenSteps  = 4096 // subschemas tried, over all oneOf/anyOf choices
	noBranchText = "no branch yields an instance"
)

// ErrNoInstance is returned, wrapped, by [Minimal] when it cannot make an
// instance the schema accepts (a pattern too hard for its generator,
// contradictory constraints, a required member that recurses forever).
var ErrNoInstance = errors.New("no minimal instance")

// Minimal returns a small instance that schema, a standalone Draft 2020-12
// document (one this package produced), accepts: only required members,
// the first enum value, the const, a sample of the format (date-time,
// date, uri, email, uuid, ipv4 and the other Draft 2020-12 formats), a
// string the pattern matches when a simple generator can make one, the
// least length, bound and item count allowed, and for oneOf and anyOf the
// first branch that yields an instance (one that refers back to a schema
// being generated is tried last, so that recursion ends). The instance is checked against
// the schema before it is returned; the caller should note an
// [ErrNoInstance] error rather than write a body by hand.
func Minimal(schema json.RawMessage) (json.RawMessage, error) {
	doc, err := decode(schema)
	if err != nil {
		return nil, fmt.Errorf("minimal: parse schema: %w", err)
	}
	ch, err := newChecker(plainValue(doc))
	if err != nil {
		return nil, fmt.Errorf("minimal: %w", err)
	}
	g := &generator{root: doc, check: ch, active: map[string]int{}}
	v, err := g.instance([]sub{{"", doc}}, map[string]bool{}, 0)
	if err != nil {
		return nil, fmt.Errorf("minimal: %w: %v", ErrNoInstance, err)
	}
	return render(v), nil
}

// generator makes instances of the subschemas of one document.
type generator struct {
	root   any
	check  *checker
	steps  int
	active map[string]int // pointers of the schemas generating an enclosing value
}

// sub is a subschema and its pointer in the document.
type sub struct {
	ptr string
	s   any // *object or bool
}

// choice is the members of one anyOf or oneOf still to choose from.
type choice struct {
	ptr      string // of the anyOf or oneOf keyword
	branches []sub
}

// instance returns a value every schema of conj accepts. decided holds
// the anyOf/oneOf keywords a branch is already chosen for.
func (g *generator) instance(conj []sub, decided map[string]bool, depth int) (any, error) {
	g.steps++
	if depth > maxGenDepth || g.steps > maxGenSteps {
		return nil, errors.New("the schema nests or branches too much to generate")
	}
	flat, choices, err := g.flatten(conj, decided)
	if err != nil {
		return nil, err
	}
	if len(choices) > 0 {
		return g.choose(conj, choices[0], decided, depth)
	}
	for _, s := range flat {
		g.active[s.ptr]++
	}
	v, err := g.candidate(flat, depth)
	for _, s := range flat {
		g.active[s.ptr]--
	}
	if err != nil {
		return nil, err
	}
	return v, g.accepts(conj, v)
}

// ordered returns branches with those that refer back to a schema
// generating an enclosing value last: a recursive branch is tried after
// the ones that end.
func (g *generator) ordered(branches []sub) []sub {
	var ends, recurs []sub
	for _, br := range branches {
		o, ok := br.s.(*object)
		if ok && o.has("$ref") {
			if t, err := g.resolve(o.str("$ref")); err == nil && g.active[t.ptr] > 0 {
				recurs = append(recurs, br)
				continue
			}
		}
		ends = append(ends, br)
	}
	return append(ends, recurs...)
}

// choose tries the branches of c in order and returns the first instance
// that every schema of conj accepts.
func (g *generator) choose(conj []sub, c choice, decided map[string]bool, depth int) (any, error) {
	next := make(map[string]bool, len(decided)+1)
	for k := range decided {
		next[k] = true
	}
	next[c.ptr] = true
	var last error
	for _, br := range g.ordered(c.branches) {
		v, err := g.instance(append(conj[:len(conj):len(conj)], br), next, depth)
		if err == nil {
			if err = g.accepts(conj, v); err == nil {
				return v, nil
			}
		}
		last = err
	}
	return nil, fmt.Errorf("%s at %q: %s: %w", lastToken(c.ptr), c.ptr, noBranchText, last)
}

// accepts checks v against every schema of conj.
func (g *generator) accepts(conj []sub, v any) error {
	for _, s := range conj {
		if err := g.check.valid(s.ptr, v); err != nil {
			return fmt.Errorf("generated %s is refused: %w", render(v), err)
		}
	}
	return nil
}

// flatten expands the $refs and allOf members of conj into one list of
// object schemas that all apply, and lists the anyOf and oneOf keywords
// not yet decided.
func (g *generator) flatten(conj []sub, decided map[string]bool) ([]sub, []choice, error) {
	var flat []sub
	var choices []choice
	seen := map[string]bool{}
	queue := append([]sub{}, conj...)
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		o, isObject := s.s.(*object)
		if b, isBool := s.s.(bool); isBool && !b {
			return nil, nil, fmt.Errorf("the schema at %q accepts nothing", s.ptr)
		}
		if !isObject || seen[s.ptr] {
			continue
		}
		seen[s.ptr] = true
		flat = append(flat, s)
		more, err := g.applied(s, o)
		if err != nil {
			return nil, nil, err
		}
		queue = append(queue, more...)
		for _, key := range []string{"oneOf", "anyOf"} {
			if ptr := childPointer(s.ptr, key); o.has(key) && !decided[ptr] {
				choices = append(choices, choice{ptr, members(s, key)})
			}
		}
	}
	return flat, choices, nil
}

// applied returns the subschemas that apply in place of s: its $ref
// target and its allOf members.
func (g *generator) applied(s sub, o *object) ([]sub, error) {
	out := members(s, "allOf")
	if ref := o.str("$ref"); ref != "" {
		t, err := g.resolve(ref)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// members returns the subschemas of array keyword key of s.
func members(s sub, key string) []sub {
	list := s.s.(*object).array(key)
	out := make([]sub, len(list))
	for i, m := range list {
		out[i] = sub{childPointer(childPointer(s.ptr, key), strconv.Itoa(i)), m}
	}
	return out
}

// resolve follows a local $ref ("#/$defs/x", "#").
func (g *generator) resolve(ref string) (sub, error) {
	if !strings.HasPrefix(ref, "#") {
		return sub{}, fmt.Errorf("$ref %q is not local", ref)
	}
	_, frag, err := splitRef(ref)
	if err != nil {
		return sub{}, err
	}
	v := g.root
	for _, tok := range pointerTokens(frag) {
		switch t := v.(type) {
		case *object:
			var ok bool
			if v, ok = t.get(tok); !ok {
				return sub{}, fmt.Errorf("$ref %q leads nowhere", ref)
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(t) {
				return sub{}, fmt.Errorf("$ref %q leads nowhere", ref)
			}
			v = t[i]
		default:
			return sub{}, fmt.Errorf("$ref %q leads nowhere", ref)
		}
	}
	return sub{frag, v}, nil
}
