package variant

import (
	"github.com/toolcert/toolcert/internal/judge"

	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// node is one value of an ordered JSON tree. Objects keep their members in
// document order; scalars keep their literal exactly as written (strings
// quoted, escapes and placeholders untouched), so a template survives a
// round trip byte for byte inside every scalar. A scalar's literal may be
// anything, also text that is not JSON: operators plant NaN or single
// quotes that way.
type node struct {
	kind    jsontext.Kind // '{', '[', '"', '0', 't', 'f', 'n'; 0 for a planted literal
	lit     string        // a scalar's text as written
	members []member      // an object's members, in order
	items   []*node       // an array's elements, in order
	comma   bool          // write a trailing comma before the closing bracket
}

// member is one name/value pair of an object.
type member struct {
	name  string // the decoded name, for pointers and lookups
	raw   string // the name as written, quoted
	value *node
}

// errTemplate is returned, wrapped, when an accepted example's template is
// not one JSON document.
var errTemplate = errors.New("template is not one JSON document")

// parseTree reads a JSON template into an ordered tree. The template's
// placeholders must sit inside strings, as they do in accepted examples.
func parseTree(raw []byte) (*node, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(raw))
	n, err := readNode(dec)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errTemplate, err)
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, fmt.Errorf("%w: data after the document", errTemplate)
	}
	return n, nil
}

// readNode reads the next value from dec.
func readNode(dec *jsontext.Decoder) (*node, error) {
	switch dec.PeekKind() {
	case '{':
		return readObject(dec)
	case '[':
		return readArray(dec)
	}
	v, err := dec.ReadValue()
	if err != nil {
		return nil, err
	}
	return &node{kind: v.Kind(), lit: string(v)}, nil
}

// readObject reads an object, member by member.
func readObject(dec *jsontext.Decoder) (*node, error) {
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	n := &node{kind: '{'}
	for dec.PeekKind() == '"' {
		name, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		m := member{raw: string(name)}
		m.name = unquote(m.raw)
		if m.value, err = readNode(dec); err != nil {
			return nil, err
		}
		n.members = append(n.members, m)
	}
	_, err := dec.ReadToken()
	return n, err
}

// readArray reads an array, element by element.
func readArray(dec *jsontext.Decoder) (*node, error) {
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	n := &node{kind: '['}
	for k := dec.PeekKind(); k != ']' && k != 0; k = dec.PeekKind() {
		item, err := readNode(dec)
		if err != nil {
			return nil, err
		}
		n.items = append(n.items, item)
	}
	_, err := dec.ReadToken()
	return n, err
}

// encode writes the tree on one line, with ": " after names and ", "
// between members and elements.
func (n *node) encode() []byte {
	var b bytes.Buffer
	n.write(&b)
	return b.Bytes()
}

// write appends the tree's text to b.
func (n *node) write(b *bytes.Buffer) {
	switch n.kind {
	case '{':
		b.WriteByte('{')
		for i, m := range n.members {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(m.raw)
			b.WriteString(": ")
			m.value.write(b)
		}
		n.writeComma(b)
		b.WriteByte('}')
	case '[':
		b.WriteByte('[')
		for i, item := range n.items {
			if i > 0 {
				b.WriteString(", ")
			}
			item.write(b)
		}
		n.writeComma(b)
		b.WriteByte(']')
	default:
		b.WriteString(n.lit)
	}
}

// writeComma writes the hostile trailing comma, when the node has one.
func (n *node) writeComma(b *bytes.Buffer) {
	if n.comma {
		b.WriteByte(',')
	}
}

// clone returns a deep copy of the tree.
func (n *node) clone() *node {
	c := &node{kind: n.kind, lit: n.lit, comma: n.comma}
	if n.members != nil {
		c.members = make([]member, len(n.members))
		for i, m := range n.members {
			c.members[i] = member{name: m.name, raw: m.raw, value: m.value.clone()}
		}
	}
	if n.items != nil {
		c.items = make([]*node, len(n.items))
		for i, item := range n.items {
			c.items[i] = item.clone()
		}
	}
	return c
}

// isContainer reports whether n is an object or an array.
func (n *node) isContainer() bool { return n.kind == '{' || n.kind == '[' }

// str returns the decoded text of a string scalar and whether n is one.
func (n *node) str() (string, bool) {
	if n.kind != '"' {
		return "", false
	}
	return unquote(n.lit), true
}

// index returns the position of the member called name, or -1.
func (n *node) index(name string) int {
	for i, m := range n.members {
		if m.name == name {
			return i
		}
	}
	return -1
}

// insert puts m into the object at position i.
func (n *node) insert(i int, m member) {
	n.members = append(n.members, member{})
	copy(n.members[i+1:], n.members[i:])
	n.members[i] = m
}

// remove deletes the member at position i.
func (n *node) remove(i int) {
	n.members = append(n.members[:i], n.members[i+1:]...)
}

// visit calls f for n and every value below it, in document order, with its
// JSON pointer; a false return skips the value's children.
func (n *node) visit(ptr string, f func(ptr string, n *node) bool) {
	if !f(ptr, n) {
		return
	}
	for _, m := range n.members {
		m.value.visit(ptr+"/"+judge.EscapePointerToken(m.name), f)
	}
	for i, item := range n.items {
		item.visit(ptr+"/"+strconv.Itoa(i), f)
	}
}

// at returns the value at the JSON pointer ptr, or nil.
func (n *node) at(ptr string) *node {
	cur := n
	for _, tok := range splitPointer(ptr) {
		switch cur.kind {
		case '{':
			i := cur.index(tok)
			if i < 0 {
				return nil
			}
			cur = cur.members[i].value
		case '[':
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(cur.items) {
				return nil
			}
			cur = cur.items[i]
		default:
			return nil
		}
	}
	return cur
}

// set replaces the value at ptr (not the root) and reports whether it was
// there.
func (n *node) set(ptr string, v *node) bool {
	parent, last := n.at(parentPointer(ptr)), lastToken(ptr)
	if parent == nil || ptr == "" {
		return false
	}
	switch parent.kind {
	case '{':
		if i := parent.index(last); i >= 0 {
			parent.members[i].value = v
			return true
		}
	case '[':
		if i, err := strconv.Atoi(last); err == nil && i >= 0 && i < len(parent.items) {
			parent.items[i] = v
			return true
		}
	}
	return false
}

// hasCanary reports whether any text of the tree holds a canary
// placeholder, outside the subtree at skip ("" skips nothing but the
// caller's root is never skipped).
func (n *node) hasCanary(skip string) bool {
	found := false
	n.visit("", func(ptr string, v *node) bool {
		if skip != "" && ptr == skip {
			return false
		}
		if strings.Contains(v.lit, canaryOpen) {
			found = true
		}
		for _, m := range v.members {
			if strings.Contains(m.raw, canaryOpen) {
				found = true
			}
		}
		return !found
	})
	return found
}

// Scalar constructors.

// strNode returns a string scalar holding s, quoted; placeholders in s stay
// as they are.
func strNode(s string) *node { return &node{kind: '"', lit: quote(s)} }

// litNode returns a value written exactly as lit, JSON or not. Only a
// valid JSON scalar gets its kind; anything else, objects and arrays
// included, is a planted literal (kind 0).
func litNode(lit string) *node {
	v := jsontext.Value(lit)
	k := v.Kind()
	if !v.IsValid() || k == '{' || k == '[' {
		k = 0
	}
	return &node{kind: k, lit: lit}
}

// objNode returns an object of the given name/value pairs, in order.
func objNode(pairs ...any) *node {
	n := &node{kind: '{', members: []member{}}
	for i := 0; i+1 < len(pairs); i += 2 {
		name := pairs[i].(string)
		n.members = append(n.members, member{name: name, raw: quote(name), value: pairs[i+1].(*node)})
	}
	return n
}

// arrNode returns an array of items.
func arrNode(items ...*node) *node { return &node{kind: '[', items: append([]*node{}, items...)} }

// quote returns s as a JSON string literal. Only '"', '\\' and control
// characters are escaped, so placeholders stay readable.
func quote(s string) string {
	b, err := jsontext.AppendQuote(nil, s)
	if err != nil {
		return `"` + s + `"` // invalid UTF-8 in an operator's own text: keep the bytes
	}
	return string(b)
}

// unquote decodes a JSON string literal; a literal that is not one decodes
// to itself.
func unquote(lit string) string {
	b, err := jsontext.AppendUnquote(nil, lit)
	if err != nil {
		return lit
	}
	return string(b)
}

// JSON pointers (RFC 6901).

// splitPointer returns the decoded reference tokens of ptr.
func splitPointer(ptr string) []string {
	if ptr == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")
	}
	return parts
}

// parentPointer returns the pointer of ptr's parent ("" for the root's
// children).
func parentPointer(ptr string) string {
	if i := strings.LastIndexByte(ptr, '/'); i >= 0 {
		return ptr[:i]
	}
	return ""
}

// lastToken returns the decoded last reference token of ptr.
func lastToken(ptr string) string {
	toks := splitPointer(ptr)
	if len(toks) == 0 {
		return ""
	}
	return toks[len(toks)-1]
}

// depth returns how many containers enclose the value at ptr (the root's
// members are at depth 1).
func depth(ptr string) int { return len(splitPointer(ptr)) }
