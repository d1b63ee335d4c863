package variant

import (
	"strings"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
)

// The kind of a variant (protocol.Kind) is its class's, from the decision
// table, with the class's exception where the variant is one, and
// must-refuse where an ignorable change replaces, removes or garbles the
// value of a member the tool binds or checks for freshness.

// valueChangers are the operators whose change replaces, removes or
// garbles the value at the variant's field; the others add members,
// repeat them, rewrite their names or touch the whole document.
var valueChangers = map[string]bool{
	"type_swap": true, "leaf_to_object": true, "empty_string": true, "overlong_string": true, "enum_outside": true,
	"pattern_break": true, "bad_format": true, "float_for_integer": true, "below_minimum": true, "above_maximum": true,
	"nul_truncation": true, "missing_required": true, "null_for_object": true, "null_for_array": true,
	"array_for_object": true, "empty_object": true, "invalid_utf8": true, "lone_surrogate": true, "control_char": true,
	"nan": true, "infinity": true, "huge_number": true, "value_pattern_break": true, "trailing_space": true,
	"escape_sequence": true, "missing_key": true,
}

// kindOf returns the kind of op's draft d on this example.
func (x *example) kindOf(op string, d draft) protocol.Kind {
	format := protocol.FormatJSON
	if x.tool.Format == corpus.FormatKeyValue {
		format = protocol.FormatKeyValue
	}
	class, ok := protocol.ClassOf(op, format)
	if !ok {
		return protocol.KindIgnorable
	}
	return class.KindOf(x.exception(op, d), valueChangers[op] && x.touchesBound(x.fieldPointer(d.field)))
}

// exception reports whether d is the exception its class's kind column
// names (protocol.Class.OtherwiseWhen).
func (x *example) exception(op string, d draft) bool {
	switch op {
	case "content_type":
		return d.expect.Outcome == protocol.OutcomeSuccess
	case "duplicate_member":
		return d.tag == "same"
	case "duplicate_key":
		return d.tag != "same"
	case "null_for_object", "null_for_array", "array_for_object":
		return d.field == ""
	}
	return false
}

// fieldPointer returns a draft's field as a JSON pointer: a key_value
// tool's fields are keys.
func (x *example) fieldPointer(field string) string {
	if x.tool.Format == corpus.FormatKeyValue && field != "" {
		return "/" + judge.EscapePointerToken(field)
	}
	return field
}

// touchesBound reports whether the value at ptr is, or holds, a member the
// tool binds to the request or checks for freshness.
func (x *example) touchesBound(ptr string) bool {
	for p := range x.ver.Bind {
		if p == ptr || inside(p, ptr) {
			return true
		}
	}
	for _, p := range x.ver.Fresh {
		if p == ptr || inside(p, ptr) {
			return true
		}
	}
	return false
}

// changeKind is the kind of op's change of the value at ptr, before the
// draft exists: what the operator places its mark by.
func (x *example) changeKind(op, ptr string) protocol.Kind {
	return x.kindOf(op, draft{field: ptr, expect: Expect{Outcome: protocol.OutcomeFailure}})
}

// markedFor returns a copy of the tree holding a canary outside avoid,
// placed for the running operator's change at ptr: where a wrong acceptance shows it when the
// change must be refused (marked), out of the agent's sight when it is
// ignorable (markedHidden). early places a must-refuse mark on the first
// string (markedEarly), for variants refused before the schema is read.
func (x *example) markedFor(ptr, avoid string, early bool) *node {
	switch {
	case x.changeKind(x.op, ptr) != protocol.KindMustRefuse:
		return x.markedHidden(avoid)
	case early:
		return x.markedEarly(avoid)
	}
	return x.marked(avoid)
}

// startTree returns the copy of the example's tree a change at ptr starts
// from: marked outside ptr (markedFor) when e expects a failure, as it is
// otherwise.
func (x *example) startTree(e Expect, ptr string) *node {
	if e.Outcome == protocol.OutcomeFailure {
		return x.markedFor(ptr, ptr, false)
	}
	return x.tree.clone()
}

// markedHidden returns a copy of the example's tree that holds a canary
// outside the subtree at avoid, where an adapter that shows only what the
// contract projects never shows it: as it is when it already holds one;
// else on the first free string that is not projected; else on an optional
// member the schema declares, the example lacks and the agent is not
// shown; else in a member "toolcert_mark" put first in the first object
// outside avoid (a member the schema does not declare: use it only for
// variants refused anyway, at the schema or before). A tree with no object
// outside avoid gets the mark on its first string.
func (x *example) markedHidden(avoid string) *node {
	t := x.tree.clone()
	if t.hasCanary(avoid) {
		return t
	}
	if ptr := x.freeCarrier(t, avoid, false); ptr != "" {
		t.at(ptr).lit = appendMark(t.at(ptr).lit)
		return t
	}
	if x.addHiddenCarrier(t, avoid) {
		return t
	}
	return x.markedEarly(avoid)
}

// hiddenMember is the member markedHidden adds when no value of the
// example can carry the mark unseen.
const hiddenMember = "toolcert_mark"

// addHiddenCarrier adds the mark to t in an optional member the root's
// schema declares and nothing projects, or else as hiddenMember, first in
// the first object outside avoid; it reports whether it did.
func (x *example) addHiddenCarrier(t *node, avoid string) bool {
	lit := quote(strings.TrimPrefix(markText, " "))
	if t.kind == '{' && !within("", avoid) {
		for _, name := range x.schema.propOrder {
			ptr := "/" + judge.EscapePointerToken(name)
			_, isBound := x.bound(ptr)
			if t.index(name) >= 0 || isBound || x.fresh(ptr) || x.schema.isRequired(name) || x.projected(ptr) {
				continue
			}
			if x.schema.at(ptr).judge(lit) == accepts {
				t.members = append(t.members, member{name: name, raw: quote(name), value: &node{kind: '"', lit: lit}})
				return true
			}
		}
	}
	done := false
	t.visit("", func(ptr string, n *node) bool {
		if done || within(ptr, avoid) {
			return false
		}
		if n.kind == '{' && n.index(hiddenMember) < 0 && !x.schema.at(ptr).allowsMember(hiddenMember) {
			n.insert(0, member{name: hiddenMember, raw: quote(hiddenMember), value: &node{kind: '"', lit: lit}})
			done = true
		}
		return !done
	})
	return done
}

// markPointer returns the pointer of the first string of t that holds the
// mark, or "".
func (t *node) markPointer() string {
	found := ""
	t.visit("", func(ptr string, n *node) bool {
		if found != "" {
			return false
		}
		if n.kind == '"' && strings.Contains(n.lit, markPlaceholder) {
			found = ptr
		}
		return found == ""
	})
	return found
}

// markPlaceholder is the mark as a body holds it.
const markPlaceholder = canaryOpen + MarkName + "}}"

// findMark returns where body, a JSON or key_value template, holds the
// mark: a JSON pointer, or a key; "" when body does not parse or holds
// none.
func (x *example) findMark(body []byte) string {
	if x.kv != nil {
		d, err := parseKV(body)
		if err != nil {
			return ""
		}
		for _, l := range d.lines {
			if strings.Contains(l.value, markPlaceholder) {
				return l.key
			}
		}
		return ""
	}
	t, err := parseTree(body)
	if err != nil {
		return ""
	}
	return t.markPointer()
}
