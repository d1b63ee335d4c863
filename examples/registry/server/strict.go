package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"unicode"
	"unicode/utf8"
)

// errDuplicate means an object of the answer names one member twice.
var errDuplicate = errors.New("an object names a member twice")

// checkMembers refuses a JSON document in which one object, at any level,
// names a member twice: encoding/json keeps the last value and says
// nothing, so {"name": "left-pad", "name": "evil"} would be read as
// "evil". Names are compared as encoding/json matches them to struct
// fields: after unescaping ("n\u0061me" is "name") and case folding
// ("NAME" fills the field "name" too). Only the fixed server calls it.
func checkMembers(body []byte) error {
	type frame struct {
		object  bool
		wantKey bool
		names   map[string]bool
	}
	var stack []*frame
	// value marks the end of a value in the enclosing object, if any.
	value := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].wantKey = true
		}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, &frame{object: true, wantKey: true, names: map[string]bool{}})
			case '[':
				stack = append(stack, &frame{})
			default:
				stack = stack[:len(stack)-1]
				value()
			}
		case string:
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].wantKey {
				top := stack[n-1]
				key := foldName(t)
				if top.names[key] {
					return errDuplicate
				}
				top.names[key] = true
				top.wantKey = false
				continue
			}
			value()
		default:
			value()
		}
	}
}

// foldName folds a member name the way encoding/json does when it
// matches a name to a struct field (bytes.EqualFold): every rune to the
// smallest rune of its case-folding orbit.
func foldName(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		for {
			r2 := unicode.SimpleFold(r)
			if r2 <= r {
				r = r2
				break
			}
			r = r2
		}
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}
