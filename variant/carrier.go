package variant

import (
	"strings"

	"github.com/toolcert/toolcert/internal/judge"
)

// A rejected variant must carry a canary, so that the harness can prove
// none of its bytes reached the agent. Operators whose own change plants
// none start from a marked copy of the example: a " {{canary:mark}}"
// appended to a carrier string, chosen so that the mark cannot change the
// outcome.

// markText is what a carrier gets appended.
const markText = " " + canaryOpen + MarkName + "}}"

// marked returns a copy of the example's tree that holds a canary outside
// the subtree at avoid: as it is when it already does, else with the mark
// on a free string the schema still accepts and no binding or freshness
// check reads (a projected one first, so a wrong accept leaks it), else
// with a new optional member the schema declares. Use it for variants the
// schema or the semantic gate must refuse.
func (x *example) marked(avoid string) *node {
	t := x.tree.clone()
	if t.hasCanary(avoid) {
		return t
	}
	for _, wantProjected := range []bool{true, false} {
		if ptr := x.freeCarrier(t, avoid, wantProjected); ptr != "" {
			t.at(ptr).lit = appendMark(t.at(ptr).lit)
			return t
		}
	}
	x.addCarrierMember(t)
	return t
}

// markedEarly returns a copy of the example's tree with a canary outside
// avoid: the mark goes on the first string in document order, whatever it
// means. Use it only for variants refused before the schema is read
// (transport and parse), where the mark cannot matter.
func (x *example) markedEarly(avoid string) *node {
	t := x.tree.clone()
	if t.hasCanary(avoid) {
		return t
	}
	done := false
	t.visit("", func(ptr string, n *node) bool {
		if done || within(ptr, avoid) {
			return false
		}
		if n.kind == '"' {
			n.lit, done = appendMark(n.lit), true
		}
		return !done
	})
	return t
}

// freeCarrier returns the pointer of the first string leaf that can carry
// the mark without changing the outcome, or "".
func (x *example) freeCarrier(t *node, avoid string, wantProjected bool) string {
	found := ""
	t.visit("", func(ptr string, n *node) bool {
		if found != "" || within(ptr, avoid) {
			return false
		}
		if n.kind != '"' || x.projected(ptr) != wantProjected || x.fresh(ptr) {
			return true
		}
		if _, ok := x.bound(ptr); ok {
			return true
		}
		if x.schema.at(ptr).judge(appendMark(n.lit)) == accepts {
			found = ptr
		}
		return true
	})
	return found
}

// addCarrierMember adds to the root the first optional member the schema
// declares, lacks from the example and accepts as "{{canary:mark}}".
func (x *example) addCarrierMember(t *node) {
	if t.kind != '{' {
		return
	}
	lit := quote(strings.TrimPrefix(markText, " "))
	for _, name := range x.schema.propOrder {
		ptr := "/" + judge.EscapePointerToken(name)
		_, isBound := x.bound(ptr)
		if t.index(name) >= 0 || isBound || x.fresh(ptr) || x.schema.isRequired(name) {
			continue
		}
		if x.schema.at(ptr).judge(lit) == accepts {
			t.members = append(t.members, member{name: name, raw: quote(name), value: &node{kind: '"', lit: lit}})
			return
		}
	}
}

// appendMark appends markText inside a string literal.
func appendMark(lit string) string {
	return lit[:len(lit)-1] + markText + `"`
}

// within reports whether ptr is avoid or lies inside it ("" avoids
// nothing).
func within(ptr, avoid string) bool {
	return avoid != "" && (ptr == avoid || strings.HasPrefix(ptr, avoid+"/"))
}
