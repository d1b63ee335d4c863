package gate

import (
	"encoding/json"
	"testing"

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
		{"/a/b/+1", nil, false},
		{"/a/b/-1", nil, false},
		{"/a/b/-", nil, false},
		{"/a/b/0/z", nil, false},
		{"/missing", nil, false},
		{"a", nil, false},
		{"/e~2f", nil, false},
	}
	for _, tt := range tests {
		got, ok := Lookup(doc, tt.ptr)
		if ok != tt.wantOK || !cmp.Equal(tt.want, got) {
			t.Errorf("Lookup(%q) = %v, %t, want %v, %t", tt.ptr, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestPointerTokensRoundTrip(t *testing.T) {
	for _, name := range []string{"plain", "a/b", "t~x", "~/~1", ""} {
		ptr := "/" + EscapePointerToken(name)
		if !ValidPointer(ptr) {
			t.Errorf("ValidPointer(%q) = false", ptr)
		}
		if got := PointerTokens(ptr); len(got) != 1 || got[0] != name {
			t.Errorf("PointerTokens(%q) = %q, want [%q]", ptr, got, name)
		}
	}
}
