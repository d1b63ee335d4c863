package corpus

import (
	"testing"
	"testing/fstest"

	"github.com/toolcert/toolcert/gate"
)

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
		if got := declares(schema, schema, gate.PointerTokens(tt.ptr), 0); got != tt.want {
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
