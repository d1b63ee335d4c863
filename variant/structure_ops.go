package variant

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
)

// structureOperators change the members of objects: extra, repeated,
// missing or renamed members, and objects replaced by null or an array.
func structureOperators() []operator {
	return []operator{
		{name: "extra_property", describe: `a member "extra": "{{canary:extra}}" added to every object`, json: extraProperty},
		{name: "extra_property_name", describe: "a member whose name is a canary added to every object (validator messages quote names)", json: extraPropertyName},
		{name: "duplicate_member", describe: "every member repeated with a canary value, the original first (#first) or last (#last), or repeated as is (#same)", json: duplicateMember},
		{name: "escaped_duplicate", describe: `every member repeated under its name with the first letter written as \uXXXX, carrying a canary`, json: escapedDuplicate},
		{name: "case_variant_duplicate", describe: "every member repeated under its name with the first letter upper-cased, carrying a canary (a schema rejection)", json: caseVariantDuplicate},
		{name: "fullwidth_duplicate", describe: "every member repeated under its name with the first letter in its fullwidth form (NFKC folds it back), carrying a canary", json: fullwidthDuplicate},
		{name: "missing_required", describe: "every member the schema requires removed", json: missingRequired},
		{name: "null_for_object", describe: "every object, the root too, replaced by null", json: nullForObject},
		{name: "null_for_array", describe: "every array, the root too, replaced by null", json: nullForArray},
		{name: "empty_object", describe: "every object but the root with two members or more emptied: refused when it has required members", json: emptyObject},
		{name: "array_for_object", describe: "every object, the root too, wrapped in [ ]", json: arrayForObject},
		{name: "escaped_name", describe: `every member's name written with its first letter as \uXXXX: the same document, which a correct adapter accepts`, json: escapedName},
	}
}

// addedMember drafts the example with one member appended to each object.
func addedMember(x *example, name string, value *node, note string) []draft {
	var out []draft
	for _, ptr := range x.objects() {
		r := x.schema.at(ptr)
		_, declared := r.props[name]
		if r.unknown || declared || !r.closed && x.projected(ptr+"/"+judge.EscapePointerToken(name)) {
			continue // an open object inside what the agent gets would hand it the member
		}
		e := schemaFault()
		if !r.closed {
			e = x.accepted()
		}
		t := x.tree.clone()
		obj := t.at(ptr)
		obj.members = append(obj.members, member{name: name, raw: quote(name), value: value.clone()})
		out = append(out, treeDraft(ptr, "", note, t, e))
	}
	return out
}

func extraProperty(x *example) []draft {
	return addedMember(x, "extra", strNode("{{canary:extra}}"), "an extra member with a canary value")
}

func extraPropertyName(x *example) []draft {
	return addedMember(x, "{{canary:name}}", litNode("true"), "an extra member named by a canary")
}

// duplicated drafts every member repeated by dup, which returns the
// repeat's name and value for the original member.
func duplicated(x *example, tags []string, dup func(m member, tag string) (member, bool), e func(ptr string, m member) (Expect, bool)) []draft {
	var out []draft
	for _, ptr := range x.members() {
		for _, tag := range tags {
			t := x.tree.clone()
			if tag == "same" {
				t = x.markedHidden("")
			}
			obj, i := t.at(parentPointer(ptr)), t.at(parentPointer(ptr)).index(lastToken(ptr))
			orig := obj.members[i]
			d, ok := dup(orig, tag)
			if !ok {
				continue
			}
			want, ok := e(ptr, d)
			if !ok {
				continue
			}
			if tag == "last" {
				obj.insert(i, d)
			} else {
				obj.insert(i+1, d)
			}
			out = append(out, treeDraft(ptr, tag, fmt.Sprintf("%s repeated (%s), the repeat %s", ptr, tag, d.raw), t, want))
		}
	}
	return out
}

// parseDuplicate is the expectation of a repeated name.
func parseDuplicate(string, member) (Expect, bool) {
	return parseFault(protocol.ReasonDuplicateName), true
}

func duplicateMember(x *example) []draft {
	return duplicated(x, []string{"first", "last", "same"}, func(m member, tag string) (member, bool) {
		if tag == "same" {
			return member{name: m.name, raw: m.raw, value: m.value.clone()}, true
		}
		return member{name: m.name, raw: m.raw, value: strNode("{{canary:dup}}")}, true
	}, parseDuplicate)
}

func escapedDuplicate(x *example) []draft {
	return duplicated(x, []string{"first", "last"}, func(m member, _ string) (member, bool) {
		raw, ok := escapeFirst(m.raw)
		return member{name: m.name, raw: raw, value: strNode("{{canary:dup}}")}, ok
	}, parseDuplicate)
}

// closedAgainst is the expectation of a repeat under another name: the
// closed schema refuses it, unless it declares the name or is open.
func closedAgainst(x *example) func(ptr string, d member) (Expect, bool) {
	return func(ptr string, d member) (Expect, bool) {
		obj := x.tree.at(parentPointer(ptr))
		r := x.schema.at(parentPointer(ptr))
		if r.unknown || r.allowsMember(d.name) || obj.index(d.name) >= 0 {
			return Expect{}, false
		}
		return schemaFault(), true
	}
}

func caseVariantDuplicate(x *example) []draft {
	return duplicated(x, []string{""}, func(m member, _ string) (member, bool) {
		r, size := utf8.DecodeRuneInString(m.name)
		up := string(unicode.ToUpper(r)) + m.name[size:]
		return member{name: up, raw: quote(up), value: strNode("{{canary:dup}}")}, up != m.name
	}, closedAgainst(x))
}

func fullwidthDuplicate(x *example) []draft {
	return duplicated(x, []string{""}, func(m member, _ string) (member, bool) {
		if m.name == "" || m.name[0] < '!' || m.name[0] > '~' {
			return member{}, false
		}
		c := m.name[0]
		wide := string(rune(0xFF01+int(c)-'!')) + m.name[1:]
		return member{name: wide, raw: quote(wide), value: strNode("{{canary:dup}}")}, true
	}, closedAgainst(x))
}

func missingRequired(x *example) []draft {
	var out []draft
	for _, ptr := range x.members() {
		r := x.schema.at(parentPointer(ptr))
		if r.unknown || !r.isRequired(lastToken(ptr)) {
			continue
		}
		t := x.markedFor(ptr, ptr, false)
		obj := t.at(parentPointer(ptr))
		obj.remove(obj.index(lastToken(ptr)))
		out = append(out, treeDraft(ptr, "", ptr+" removed", t, schemaFault()))
	}
	return out
}

// replacedObject drafts every object replaced by wrap's result. When the
// result drops the object's content (wrapsRootAway), the root is replaced
// only for the tool's first example: the body is the same for every
// example.
func replacedObject(x *example, note string, wrapsRootAway bool, wrap func(*node) *node) []draft {
	var out []draft
	for _, ptr := range x.objects() {
		if ptr == "" && !x.first && wrapsRootAway {
			continue
		}
		e, ok := x.leafVerdict(ptr, string(wrap(x.tree.at(ptr)).encode()))
		if !ok {
			continue
		}
		t := x.startTree(e, ptr)
		v := wrap(t.at(ptr))
		if ptr == "" {
			t = v
		} else {
			t.set(ptr, v)
		}
		out = append(out, treeDraft(ptr, "", where(ptr)+" "+note, t, e))
	}
	return out
}

func nullForObject(x *example) []draft {
	return replacedObject(x, "replaced by null", true, func(*node) *node { return litNode("null") })
}

func nullForArray(x *example) []draft {
	var out []draft
	for _, ptr := range x.pointers(func(n *node) bool { return n.kind == '[' }) {
		if ptr == "" && !x.first {
			continue
		}
		e, ok := x.leafVerdict(ptr, "null")
		if !ok {
			continue
		}
		t := x.startTree(e, ptr)
		if ptr == "" {
			t = litNode("null")
		} else {
			t.set(ptr, litNode("null"))
		}
		out = append(out, treeDraft(ptr, "", where(ptr)+" replaced by null", t, e))
	}
	return out
}

func arrayForObject(x *example) []draft {
	return replacedObject(x, "wrapped in an array", false, func(n *node) *node { return arrNode(n) })
}

func emptyObject(x *example) []draft {
	var out []draft
	for _, ptr := range x.objects() {
		if ptr == "" {
			continue
		}
		r := x.schema.at(ptr)
		if r.unknown || len(x.tree.at(ptr).members) < 2 || x.projected(ptr) && len(r.required) == 0 {
			continue // one member: the same as removing it
		}
		e := x.accepted()
		if len(r.required) > 0 {
			e = schemaFault()
		}
		t := x.startTree(e, ptr)
		t.set(ptr, objNode())
		out = append(out, treeDraft(ptr, "", ptr+" emptied", t, e))
	}
	return out
}

func escapedName(x *example) []draft {
	var out []draft
	for _, ptr := range x.members() {
		t := x.tree.clone()
		obj := t.at(parentPointer(ptr))
		i := obj.index(lastToken(ptr))
		raw, ok := escapeFirst(obj.members[i].raw)
		if !ok {
			continue
		}
		obj.members[i].raw = raw
		out = append(out, treeDraft(ptr, "", "the name of "+ptr+" written as "+raw, t, x.accepted()))
	}
	return out
}

// escapeFirst rewrites a string literal with its first character, an ASCII
// letter or digit, as a \u escape.
func escapeFirst(lit string) (string, bool) {
	if len(lit) < 3 || lit[0] != '"' {
		return "", false
	}
	c := lit[1]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
		return "", false
	}
	return fmt.Sprintf(`"\u%04x%s`, c, lit[2:]), true
}
