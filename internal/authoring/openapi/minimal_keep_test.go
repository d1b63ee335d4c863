package openapi

import (
	"encoding/json"
	"testing"
)

// TestMinimalKeeping checks that an instance made for an import holds
// every kept member and what is on the way to it, through $refs,
// compositions and a null tried first, and nothing else optional.
func TestMinimalKeeping(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		keep         []string
		want         string
	}{
		{"an optional member", `{"type": "object", "required": ["id", "name"], "properties": {"id": {"type": "integer"}, "name": {"type": "string"}, "tag": {"type": "string"}, "age": {"type": "integer"}}}`,
			[]string{"/name", "/tag"}, `{"id": 0, "name": "", "tag": ""}`},
		{"the whole answer", `{"type": "object", "properties": {"a": {"type": "string"}}}`, []string{""}, `{}`},
		{"an optional object on the way", `{"type": "object", "properties": {"user": {"type": "object", "properties": {"login": {"type": "string", "minLength": 2}, "id": {"type": "integer"}}}}}`,
			[]string{"/user/login"}, `{"user": {"login": "aa"}}`},
		{"a null branch first", `{"type": "object", "properties": {"user": {"oneOf": [{"type": "null"}, {"type": "object", "properties": {"login": {"type": "string"}}}]}}}`,
			[]string{"/user/login"}, `{"user": {"login": ""}}`},
		{"a member an allOf part declares", `{"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"properties": {"b": {"type": "integer", "minimum": 3}}}], "unevaluatedProperties": false}`,
			[]string{"/b"}, `{"b": 3}`},
		{"an element of a list", `{"type": "array", "items": {"$ref": "#/$defs/pet"}, "$defs": {"pet": {"type": "object", "properties": {"tag": {"type": "string", "format": "email"}}}}}`,
			[]string{"/*/tag"}, `[{"tag": "user@example.com"}]`},
		{"a list on the way", `{"type": "object", "properties": {"pets": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}}}}`,
			[]string{"/pets/*/name"}, `{"pets": [{"name": ""}]}`},
	} {
		var keep [][]string
		for _, k := range tc.keep {
			keep = append(keep, pointerTokens(k))
		}
		got, err := generate(json.RawMessage(tc.schema), genOptions{keep: keep})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if compact(t, got) != compact(t, []byte(tc.want)) {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
		if err := validates(t, mustCompile(t, tc.name, json.RawMessage(tc.schema)), got); err != nil {
			t.Errorf("%s: the schema refuses %s: %v", tc.name, got, err)
		}
	}
}

// TestFullInstance checks an instance with every member: optional ones
// included unless the object would then be refused, a recursive member
// cut, strings distinct within their formats and lengths.
func TestFullInstance(t *testing.T) {
	for _, tc := range []struct{ name, schema, want string }{
		{"every member, distinct strings", `{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}, "when": {"type": "string", "format": "date-time"}, "at": {"type": "string", "format": "date-time"}, "n": {"type": "integer", "minimum": 1}}}`,
			`{"a": "a-1", "b": "b-2", "when": "2024-01-01T00:00:03Z", "at": "2024-01-01T00:00:04Z", "n": 1}`},
		{"maxProperties keeps the first", `{"type": "object", "maxProperties": 1, "properties": {"a": {"type": "boolean"}, "b": {"type": "boolean"}}}`, `{"a": false}`},
		{"an enum value not yet used", `{"type": "object", "properties": {"a": {"enum": ["x", "y"]}, "b": {"enum": ["x", "y"]}, "c": {"enum": ["x"]}}}`, `{"a": "x", "b": "y", "c": "x"}`},
		{"a pattern matched longer", `{"type": "object", "properties": {"a": {"type": "string", "pattern": "^[a-z]+$"}, "b": {"type": "string", "pattern": "^[a-z]+$"}}}`, `{"a": "a", "b": "aa"}`},
		{"a recursive member cut", `{"$ref": "#/$defs/node", "$defs": {"node": {"type": "object", "properties": {"name": {"type": "string"}, "next": {"$ref": "#/$defs/node"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}}`,
			`{"name": "name-1", "kids": []}`},
		{"a nullable recursive member is null", `{"$ref": "#/$defs/node", "$defs": {"node": {"type": "object", "properties": {"id": {"type": "string"}, "parent": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/node"}]}}}}}`,
			`{"id": "id-1", "parent": null}`},
		{"a nullable member is not", `{"type": "object", "properties": {"user": {"anyOf": [{"type": "null"}, {"type": "object", "properties": {"login": {"type": "string"}}}]}}}`,
			`{"user": {"login": "login-1"}}`},
		{"a list of none at most", `{"type": "array", "maxItems": 0, "items": {"type": "string"}}`, `[]`},
	} {
		got, err := generate(json.RawMessage(tc.schema), genOptions{full: true})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if compact(t, got) != compact(t, []byte(tc.want)) {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
	}
}
