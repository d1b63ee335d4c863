package record

import (
	"bytes"
	"encoding/json"
)

// node is a JSON object that keeps its members in the order set, so a
// schema reads "$schema", "title", "type", "properties" and so on.
type node []field

// field is one member of a node.
type field struct {
	key   string
	value any
}

// set sets key to value, in place when key is there, else last.
func (n node) set(key string, value any) node {
	for i := range n {
		if n[i].key == key {
			n[i].value = value
			return n
		}
	}
	return append(n, field{key, value})
}

// get returns the value of key, and whether it is there.
func (n node) get(key string) (any, bool) {
	for _, f := range n {
		if f.key == key {
			return f.value, true
		}
	}
	return nil, false
}

// MarshalJSON writes n's members in order.
func (n node) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := encodeTo(&b, f.key); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := encodeTo(&b, f.value); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// encodeTo writes v as JSON to b, "<", ">" and "&" as they are.
func encodeTo(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode ends with a newline
	return nil
}

// indented returns n as indented JSON.
func (n node) indented() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
