package corpus

import (
	"encoding/json"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestLookup(t *testing.T) {
	doc := map[string]any{
		"a":   map[string]any{"b": []any{"x", json.Number("2")}},
		"c/d": "slash",
		"e~f": "tilde",
		"":    "empty name",
	}
	tests := []struct {
		ptr    string
		want   any
		wantOK bool
	}{
		{"", doc, true},
		{"/a/b/0", "x", true},
		{"/a/b/1", json.Number("2"), true},
		{"/c~1d", "slash", true},
		{"/e~0f", "tilde", true},
		{"/", "empty name", true},
		{"/a/b/2", nil, false},
		{"/a/b/01", nil, false},
		{"/a/b/-", nil, false},
		{"/a/b/0/z", nil, false},
		{"/missing", nil, false},
		{"a", nil, false},
		{"/e~2f", nil, false},
	}
	for _, tt := range tests {
		got, ok := lookup(doc, tt.ptr)
		if ok != tt.wantOK || !cmp.Equal(tt.want, got) {
			t.Errorf("lookup(%q) = %v, %t, want %v, %t", tt.ptr, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestDeclares(t *testing.T) {
	schema := map[string]any{
		"$defs": map[string]any{"link": map[string]any{"properties": map[string]any{"href": map[string]any{}}}},
		"allOf": []any{
			map[string]any{"properties": map[string]any{"id": map[string]any{}}},
			map[string]any{"properties": map[string]any{
				"links": map[string]any{"items": map[string]any{"$ref": "#/$defs/link"}},
				"a/b":   map[string]any{},
			}},
		},
	}
	tests := []struct {
		ptr  string
		want bool
	}{
		{"/id", true},
		{"/links/0/href", true},
		{"/a~1b", true},
		{"/links/first/href", false},
		{"/links/0/rel", false},
		{"/name", false},
	}
	for _, tt := range tests {
		if got := declares(schema, schema, pointerTokens(tt.ptr), 0); got != tt.want {
			t.Errorf("declares(%q) = %t, want %t", tt.ptr, got, tt.want)
		}
	}
}

func TestSchemaCacheCompilesOnce(t *testing.T) {
	c := New(fstest.MapFS{"s.json": {Data: []byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}`)}})
	a, err := c.schema("s.json")
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.schema("s.json")
	if err != nil || a != b {
		t.Errorf("second schema() = %p, %v, want the cached %p", b, err, a)
	}
	if _, err := c.schema("missing.json"); err == nil {
		t.Error("schema(missing.json) succeeded")
	}
}
