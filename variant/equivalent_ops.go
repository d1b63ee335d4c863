package variant

import (
	"bytes"
	"slices"
)

// equivalentOperators write the example again with the same meaning, as
// JSON allows: members in another order, white space between tokens. A
// correct adapter accepts them and shows what it shows for the example
// (escaped_name and escaped_value, with the structure and value operators,
// are the other two).
func equivalentOperators() []operator {
	return []operator{
		{name: "member_order", describe: "the members of every object written in reverse order: the same document, which a correct adapter accepts", json: memberOrder},
		{name: "whitespace", describe: "the example written with a line end (CR LF) and a tab before every token: the same document, which a correct adapter accepts", json: whitespace},
	}
}

func memberOrder(x *example) []draft {
	t := x.tree.clone()
	changed := false
	t.visit("", func(_ string, n *node) bool {
		if len(n.members) > 1 {
			slices.Reverse(n.members)
			changed = true
		}
		return true
	})
	if !changed {
		return nil
	}
	return []draft{treeDraft("", "", "the members of every object in reverse order", t, x.accepted())}
}

func whitespace(x *example) []draft {
	var b bytes.Buffer
	x.tree.writeSpaced(&b)
	b.WriteString("\r\n")
	return []draft{{note: "a CR LF and a tab before every token, and a CR LF after the document", body: b.Bytes(), expect: x.accepted()}}
}

// writeSpaced writes the tree as write does, with "\r\n\t" before every
// token and around every name separator.
func (n *node) writeSpaced(b *bytes.Buffer) {
	const ws = "\r\n\t"
	b.WriteString(ws)
	switch n.kind {
	case '{':
		b.WriteByte('{')
		for i, m := range n.members {
			if i > 0 {
				b.WriteString(ws + ",")
			}
			b.WriteString(ws + m.raw + ws + ":")
			m.value.writeSpaced(b)
		}
		b.WriteString(ws + "}")
	case '[':
		b.WriteByte('[')
		for i, item := range n.items {
			if i > 0 {
				b.WriteString(ws + ",")
			}
			item.writeSpaced(b)
		}
		b.WriteString(ws + "]")
	default:
		b.WriteString(n.lit)
	}
}
