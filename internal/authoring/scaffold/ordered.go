package scaffold

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// object is a JSON object that keeps its members in order: the files an
// import writes are read by people, in the order the source gave.
type object struct {
	keys []string
	vals map[string]any
}

// newObject returns an object of the members kv: name, value, name,
// value...
func newObject(kv ...any) *object {
	o := &object{vals: map[string]any{}}
	for i := 0; i+1 < len(kv); i += 2 {
		o.set(kv[i].(string), kv[i+1])
	}
	return o
}

// get returns the member name.
func (o *object) get(name string) (any, bool) {
	v, ok := o.vals[name]
	return v, ok
}

// set sets member name, appending it when new.
func (o *object) set(name string, v any) {
	if _, ok := o.vals[name]; !ok {
		o.keys = append(o.keys, name)
	}
	o.vals[name] = v
}

// del removes member name.
func (o *object) del(name string) {
	if _, ok := o.vals[name]; !ok {
		return
	}
	delete(o.vals, name)
	for i, k := range o.keys {
		if k == name {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// clone returns a deep copy of v.
func clone(v any) any {
	switch t := v.(type) {
	case *object:
		c := &object{keys: append([]string(nil), t.keys...), vals: make(map[string]any, len(t.vals))}
		for k, x := range t.vals {
			c.vals[k] = clone(x)
		}
		return c
	case []any:
		c := make([]any, len(t))
		for i, x := range t {
			c[i] = clone(x)
		}
		return c
	}
	return v
}

// parse reads one JSON document into objects, []any, json.Number, string,
// bool and nil.
func parse(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, fmt.Errorf("parse JSON: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("parse JSON: data after the document")
	}
	return v, nil
}

func parseValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			return parseArray(dec)
		}
		return parseObject(dec)
	default:
		return t, nil
	}
}

func parseObject(dec *json.Decoder) (any, error) {
	o := newObject()
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name := tok.(string)
		if _, dup := o.vals[name]; dup {
			return nil, fmt.Errorf("member %q twice", name)
		}
		v, err := parseValue(dec)
		if err != nil {
			return nil, err
		}
		o.set(name, v)
	}
	_, err := dec.Token()
	return o, err
}

func parseArray(dec *json.Decoder) (any, error) {
	out := []any{}
	for dec.More() {
		v, err := parseValue(dec)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	_, err := dec.Token()
	return out, err
}

// encoder writes JSON without HTML escaping. With rendered set, every
// "{" inside a string is written as \u007b, so that no text of the source
// reads as a corpus placeholder ({{...}}) in a file the harness renders
// (bodies, cases.json); a placeholder value is written as it is.
type encoder struct {
	b        bytes.Buffer
	rendered bool
}

// encodeFile writes v indented by two spaces, with a final newline: a
// file the harness does not render (tool.json, schemas).
func encodeFile(v any) []byte {
	var e encoder
	e.write(v, "")
	e.b.WriteByte('\n')
	return e.b.Bytes()
}

// encodeRendered writes v as encodeFile does, for a file the harness
// renders (cases.json).
func encodeRendered(v any) []byte {
	e := encoder{rendered: true}
	e.write(v, "")
	e.b.WriteByte('\n')
	return e.b.Bytes()
}

// encodeBody writes v on one line, as an upstream would send it, for the
// harness to render.
func encodeBody(v any) []byte {
	e := encoder{rendered: true}
	e.writeLine(v)
	return e.b.Bytes()
}

func (e *encoder) write(v any, indent string) {
	b := &e.b
	inner := indent + "  "
	switch t := v.(type) {
	case *object:
		if len(t.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range t.keys {
			b.WriteString(inner)
			e.writeString(k)
			b.WriteString(": ")
			e.write(t.vals[k], inner)
			if i < len(t.keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, x := range t {
			b.WriteString(inner)
			e.write(x, inner)
			if i < len(t)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	default:
		e.writeScalar(v)
	}
}

func (e *encoder) writeLine(v any) {
	b := &e.b
	switch t := v.(type) {
	case *object:
		b.WriteByte('{')
		for i, k := range t.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			e.writeString(k)
			b.WriteString(": ")
			e.writeLine(t.vals[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, x := range t {
			if i > 0 {
				b.WriteString(", ")
			}
			e.writeLine(x)
		}
		b.WriteByte(']')
	default:
		e.writeScalar(v)
	}
}

func (e *encoder) writeScalar(v any) {
	b := &e.b
	switch t := v.(type) {
	case placeholder:
		b.WriteString(`"` + string(t) + `"`)
	case rawJSON:
		b.Write(t)
	case string:
		e.writeString(t)
	case json.Number:
		b.WriteString(t.String())
	case bool:
		fmt.Fprint(b, t)
	case nil:
		b.WriteString("null")
	case int:
		fmt.Fprint(b, t)
	case float64:
		raw, _ := json.Marshal(t)
		b.Write(raw)
	default:
		panic(fmt.Sprintf("scaffold: cannot encode %T", v))
	}
}

// writeString writes s as a JSON string.
func (e *encoder) writeString(s string) {
	var q bytes.Buffer
	enc := json.NewEncoder(&q)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	out := strings.TrimSuffix(q.String(), "\n")
	if e.rendered {
		out = strings.ReplaceAll(out, "{", `\u007b`)
	}
	e.b.WriteString(out)
}

// placeholder is a string value that is a corpus placeholder, such as
// {{canary:body}}: written as it is, never escaped.
type placeholder string

// rawJSON is a JSON value already encoded (a body written by encodeBody
// inside tool.json): written as it is.
type rawJSON []byte
