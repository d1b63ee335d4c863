package openapi

import (
	"regexp"
	"slices"
	"strings"
)

// filler gives values by name (a request's path parameters) to the
// members of an answer named like them, so that an answer to GET
// /pets/{petId} with petId 42 is about pet 42. A member takes the value
// of a key when its name is the key's, case, "_", "-" and "." aside
// (pet_id, petId, pet-id), or when the key names an object and the
// member (its last word: id, number) is that object's: a member of the
// answer itself, when the key is the route's last parameter (petId of
// /pets/{petId}, issue_number of /issues/{issue_number}), or of a member
// named as the object (pet or pets). A value takes the member's type
// where its schema allows: digits are a number for a number.
type filler struct {
	values map[string]string
	keys   []string // sorted: the choice does not depend on map order
	last   string   // the parameter the route's template names last
}

// newFiller returns a filler of values for an operation of path
// template path; nil when there are no values.
func newFiller(values map[string]string, path string) *filler {
	if len(values) == 0 {
		return nil
	}
	f := &filler{values: values}
	for k := range values {
		f.keys = append(f.keys, k)
	}
	slices.Sort(f.keys)
	if m := templateVar.FindAllStringSubmatch(path, -1); len(m) > 0 {
		f.last = m[len(m)-1][1]
	}
	return f
}

// valueFor returns the value the member at path (member names, "*" an
// element of a list) takes, and whether one does.
func (f *filler) valueFor(path []string) (string, bool) {
	if f == nil || len(path) == 0 || path[len(path)-1] == "*" {
		return "", false
	}
	name := path[len(path)-1]
	for _, k := range f.keys {
		if foldName(k) == foldName(name) {
			return f.values[k], true
		}
	}
	parent := ""
	for i := len(path) - 2; i >= 0 && parent == ""; i-- {
		if path[i] != "*" {
			parent = foldName(path[i])
		}
	}
	for _, k := range f.keys {
		words := nameWords(k)
		if len(words) < 2 || foldName(words[len(words)-1]) != foldName(name) {
			continue
		}
		object := foldName(strings.Join(words[:len(words)-1], ""))
		if len(path) == 1 && k == f.last || parent != "" && (parent == object || parent == object+"s") {
			return f.values[k], true
		}
	}
	return "", false
}

// foldName is a name with case, "_", "-" and "." left out.
func foldName(s string) string {
	return strings.NewReplacer("_", "", "-", "", ".", "").Replace(strings.ToLower(s))
}

// wordBreak finds where a camel-case name starts a word.
var wordBreak = regexp.MustCompile(`([a-z0-9])([A-Z])`)

// nameWords splits a name into its words: "petId", "pet_id" and "pet-id"
// are pet and id.
func nameWords(s string) []string {
	return strings.FieldsFunc(wordBreak.ReplaceAllString(s, "${1}_${2}"), func(r rune) bool {
		return r == '_' || r == '-' || r == '.' || r == ' '
	})
}

// givenForms returns the values text may be written as in an answer: a
// number, when it is one, and the string; the number first when
// numberFirst.
func givenForms(text string, numberFirst bool) []any {
	if !jsonNumber.MatchString(text) {
		return []any{text}
	}
	if numberFirst {
		return []any{number(text), text}
	}
	return []any{text, number(text)}
}

// given returns the value given for the member being made when flat
// accepts it (as a number first when flat is of a number type).
func (g *generator) given(flat []sub) (any, bool) {
	text, ok := g.opts.values.valueFor(g.path)
	if !ok {
		return nil, false
	}
	t := pickType(flat)
	for _, v := range givenForms(text, t == "integer" || t == "number") {
		if g.accepts(flat, v) == nil {
			return v, true
		}
	}
	return nil, false
}

// fill gives each scalar member of example v named like a value that
// value, where the schema (ch, at its root) still accepts the whole; it
// changes v in place.
func (f *filler) fill(v any, ch *checker) {
	var walk func(x any, path []string)
	walk = func(x any, path []string) {
		switch t := x.(type) {
		case *object:
			for i := range t.members {
				m := &t.members[i]
				at := append(slices.Clip(path), m.key)
				if text, ok := f.valueFor(at); ok && isScalar(m.val) {
					f.put(m, text, v, ch)
				}
				walk(m.val, at)
			}
		case []any:
			for _, item := range t {
				walk(item, append(slices.Clip(path), "*"))
			}
		}
	}
	walk(v, nil)
}

// put sets member m of document doc to text, in the form the schema
// accepts; m is left as it was when it accepts none.
func (f *filler) put(m *member, text string, doc any, ch *checker) {
	was := m.val
	_, isNumber := was.(number)
	for _, form := range givenForms(text, isNumber) {
		m.val = form
		if ch.valid("", doc) == nil {
			return
		}
	}
	m.val = was
}

// isScalar reports whether v is a string, number, boolean or null.
func isScalar(v any) bool {
	switch v.(type) {
	case *object, []any:
		return false
	}
	return true
}
