package record

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/toolcert/toolcert/internal/judge"
)

// member is one member of a JSON object, as written.
type member struct {
	name  string
	value any
}

// readDocument parses raw strictly (judge.ParseJSON, the harness's own
// limits) and returns its value tree with every object's members in the
// order written: []member, []any, string, json.Number (the literal),
// bool or nil.
func readDocument(raw []byte) (any, error) {
	if _, err := judge.ParseJSON(raw, judge.Limits{}); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return readValue(dec)
}

// readValue reads the next value of dec, a document judge has accepted.
func readValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("read document: %w", err)
	}
	switch tok {
	case json.Delim('{'):
		return readMembers(dec)
	case json.Delim('['):
		return readElements(dec)
	}
	return tok, nil
}

// readMembers reads an object's members, after its "{", through its "}".
func readMembers(dec *json.Decoder) ([]member, error) {
	members := []member{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("read document: %w", err)
		}
		name, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("read document: member name %v", tok)
		}
		v, err := readValue(dec)
		if err != nil {
			return nil, err
		}
		members = append(members, member{name: name, value: v})
	}
	_, err := dec.Token()
	return members, err
}

// readElements reads an array's elements, after its "[", through its "]".
func readElements(dec *json.Decoder) ([]any, error) {
	elems := []any{}
	for dec.More() {
		v, err := readValue(dec)
		if err != nil {
			return nil, err
		}
		elems = append(elems, v)
	}
	_, err := dec.Token()
	return elems, err
}
