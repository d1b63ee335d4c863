package openapi

import (
	"bytes"
	"encoding/json"
	"strings"
)

// inlineWidth is the widest array of scalars rendered on one line.
const inlineWidth = 72

// render writes v as indented JSON, two spaces a level, members in their
// order; an array of scalars short enough stays on one line.
func render(v any) json.RawMessage {
	var b bytes.Buffer
	writeValue(&b, v, 0)
	return json.RawMessage(b.Bytes())
}

// writeValue writes v at the given indentation level.
func writeValue(b *bytes.Buffer, v any, level int) {
	switch t := v.(type) {
	case *object:
		writeObject(b, t, level)
	case []any:
		writeArray(b, t, level)
	default:
		writeScalar(b, v)
	}
}

// writeObject writes o, one member a line.
func writeObject(b *bytes.Buffer, o *object, level int) {
	if len(o.members) == 0 {
		b.WriteString("{}")
		return
	}
	b.WriteString("{\n")
	for i, m := range o.members {
		indent(b, level+1)
		writeString(b, m.key)
		b.WriteString(": ")
		writeValue(b, m.val, level+1)
		if i < len(o.members)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	indent(b, level)
	b.WriteByte('}')
}

// writeArray writes a, on one line when it holds only a few scalars.
func writeArray(b *bytes.Buffer, a []any, level int) {
	if line, ok := scalarLine(a); ok {
		b.WriteString(line)
		return
	}
	b.WriteString("[\n")
	for i, item := range a {
		indent(b, level+1)
		writeValue(b, item, level+1)
		if i < len(a)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	indent(b, level)
	b.WriteByte(']')
}

// scalarLine renders a on one line when every item is a scalar and the
// line is short.
func scalarLine(a []any) (string, bool) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, item := range a {
		switch item.(type) {
		case *object, []any:
			return "", false
		}
		if i > 0 {
			b.WriteString(", ")
		}
		writeScalar(&b, item)
		if b.Len() > inlineWidth {
			return "", false
		}
	}
	b.WriteByte(']')
	return b.String(), true
}

// writeScalar writes a string, number, boolean or null.
func writeScalar(b *bytes.Buffer, v any) {
	switch t := v.(type) {
	case string:
		writeString(b, t)
	case number:
		b.WriteString(string(t))
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	default:
		b.WriteString("null")
	}
}

// writeString writes s as a JSON string, without escaping <, > and &.
func writeString(b *bytes.Buffer, s string) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// indent writes two spaces per level.
func indent(b *bytes.Buffer, level int) {
	b.WriteString(strings.Repeat("  ", level))
}
