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
	maxGenDepth  = 128     // nesting of generated values
	maxGenSteps  = 4096    // subschemas tried, over all oneOf/anyOf choices
	maxFullSteps = 1 << 16 // the same, for an instance with every member
	// maxFullDepth is the nesting past which a full instance has only
	// the members and elements its schema requires.
	maxFullDepth = 8
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
	return generate(schema, genOptions{})
}

// genOptions say what an instance holds beyond the minimum.
type genOptions struct {
	// keep are pointers ("*" every element of a list) the instance must
	// reach: every member on the way to each, a list on the way given one
	// element at least.
	keep [][]string
	// full makes every declared member (bounded in depth, recursion cut),
	// one element in each list, and each string distinct from the others
	// where its schema allows.
	full bool
	// values are values given by name, for the members named like them
	// (see filler).
	values *filler
}

// generate makes an instance of schema as opts say, checked against it.
func generate(schema json.RawMessage, opts genOptions) (json.RawMessage, error) {
	doc, err := decode(schema)
	if err != nil {
		return nil, fmt.Errorf("minimal: parse schema: %w", err)
	}
	ch, err := newChecker(plainValue(doc))
	if err != nil {
		return nil, fmt.Errorf("minimal: %w", err)
	}
	g := &generator{root: doc, check: ch, active: map[string]int{}, opts: opts, maxSteps: maxGenSteps, used: map[string]bool{}}
	if opts.full {
		g.maxSteps = maxFullSteps
	}
	v, err := g.instance([]sub{{"", doc}}, map[string]bool{}, 0)
	if err != nil {
		return nil, fmt.Errorf("minimal: %w: %v", ErrNoInstance, err)
	}
	return render(v), nil
}

// generator makes instances of the subschemas of one document.
type generator struct {
	root     any
	check    *checker
	steps    int
	maxSteps int
	active   map[string]int // pointers of the schemas generating an enclosing value
	opts     genOptions
	// path is where the value being made sits in the instance: member
	// names, "*" for an element of a list.
	path []string
	// used are the strings made so far; made numbers the variants a
	// full instance tries for a distinct string.
	used map[string]bool
	made int
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
	if depth > maxGenDepth || g.steps > g.maxSteps {
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
	v, given := g.given(flat)
	if !given {
		v, err = g.candidate(flat, depth)
	}
	for _, s := range flat {
		g.active[s.ptr]--
	}
	if err != nil {
		return nil, err
	}
	if s, ok := v.(string); ok {
		g.used[s] = true
	}
	return v, g.accepts(conj, v)
}

// ordered returns branches with those that refer back to a schema
// generating an enclosing value last, and how many come before them: a
// recursive branch is tried after the ones that end.
func (g *generator) ordered(branches []sub) ([]sub, int) {
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
	return append(ends, recurs...), len(ends)
}

// choose tries the branches of c in order and returns the first instance
// that every schema of conj accepts and that reaches every kept pointer
// (and, in a full instance, is not null), else the first accepted; a
// full instance takes that one rather than recurse again.
func (g *generator) choose(conj []sub, c choice, decided map[string]bool, depth int) (any, error) {
	next := make(map[string]bool, len(decided)+1)
	for k := range decided {
		next[k] = true
	}
	next[c.ptr] = true
	var last error
	var short any // the first instance accepted that is not the one wanted
	found := false
	branches, ends := g.ordered(c.branches)
	for i, br := range branches {
		if found && g.opts.full && i >= ends {
			break
		}
		v, err := g.instance(append(conj[:len(conj):len(conj)], br), next, depth)
		if err == nil {
			if err = g.accepts(conj, v); err == nil {
				if g.reaches(v) && (!g.opts.full || v != nil) {
					return v, nil
				}
				if !found {
					short, found = v, true
				}
				continue
			}
		}
		last = err
	}
	if found {
		return short, nil
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
