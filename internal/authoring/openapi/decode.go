package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// maxDecodeDepth bounds the nesting decode accepts.
const maxDecodeDepth = 512

// decode parses one JSON document into ordered values: *object, []any,
// string, number, bool or nil.
func decode(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("data after the document")
	}
	return v, nil
}

// decodeValue reads the next value of dec.
func decodeValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxDecodeDepth {
		return nil, fmt.Errorf("document nests deeper than %d levels", maxDecodeDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return decodeObject(dec, depth)
		}
		return decodeArray(dec, depth)
	case json.Number:
		return number(t), nil
	}
	return tok, nil
}

// decodeObject reads the members of an object whose '{' is read.
func decodeObject(dec *json.Decoder, depth int) (any, error) {
	o := &object{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		v, err := decodeValue(dec, depth+1)
		if err != nil {
			return nil, err
		}
		o.members = append(o.members, member{key, v})
	}
	_, err := dec.Token()
	return o, err
}

// decodeArray reads the items of an array whose '[' is read.
func decodeArray(dec *json.Decoder, depth int) (any, error) {
	items := []any{}
	for dec.More() {
		v, err := decodeValue(dec, depth+1)
		if err != nil {
			return nil, err
		}
		items = append(items, v)
	}
	_, err := dec.Token()
	return items, err
}

// plainValue returns v as encoding/json would decode it with UseNumber:
// maps, slices, json.Number; what a validator takes.
func plainValue(v any) any {
	switch t := v.(type) {
	case *object:
		m := make(map[string]any, len(t.members))
		for _, mem := range t.members {
			m[mem.key] = plainValue(mem.val)
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, item := range t {
			out[i] = plainValue(item)
		}
		return out
	case number:
		return json.Number(t)
	}
	return v
}
