package openapi

import "slices"

// An instance made for an import holds every member the agent keeps
// (genOptions.keep): the corpus projects a kept member only from an
// answer that has it. The generator knows where the value it makes sits
// (generator.path), and so which members and elements are on the way to
// a kept pointer.

// below returns, of each kept pointer through the value being made, what
// follows it.
func (g *generator) below() [][]string {
	var out [][]string
	for _, k := range g.opts.keep {
		if len(k) > len(g.path) && slices.Equal(k[:len(g.path)], g.path) {
			out = append(out, k[len(g.path):])
		}
	}
	return out
}

// keepsMember reports whether member name of the object being made is on
// the way to a kept pointer.
func (g *generator) keepsMember(name string) bool {
	return slices.ContainsFunc(g.below(), func(t []string) bool { return t[0] == name })
}

// keepsItem reports whether the elements of the list being made are on
// the way to a kept pointer.
func (g *generator) keepsItem() bool {
	return g.keepsMember("*")
}

// reaches reports whether v, made where the generator stands, holds every
// kept pointer through it.
func (g *generator) reaches(v any) bool {
	for _, t := range g.below() {
		if !reachesTail(v, t) {
			return false
		}
	}
	return true
}

// reachesTail reports whether v holds tail ("*" every element of a
// list, one at least).
func reachesTail(v any, tail []string) bool {
	if len(tail) == 0 {
		return true
	}
	switch t := v.(type) {
	case *object:
		m, ok := t.get(tail[0])
		return ok && reachesTail(m, tail[1:])
	case []any:
		if tail[0] != "*" || len(t) == 0 {
			return false
		}
		for _, item := range t {
			if !reachesTail(item, tail[1:]) {
				return false
			}
		}
		return true
	}
	return false
}

// within runs make with the generator standing at member or element tok
// of the value being made.
func (g *generator) within(tok string, make func() (any, error)) (any, error) {
	g.path = append(g.path, tok)
	defer func() { g.path = g.path[:len(g.path)-1] }()
	return make()
}
