package judge_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/internal/judge"
)

func TestPointers(t *testing.T) {
	doc := map[string]any{
		"a":   map[string]any{"b/c": []any{json.Number("10"), "x"}, "m~n": true, "": "empty"},
		"arr": []any{json.Number("0"), json.Number("1")},
	}
	tests := []struct {
		ptr    string
		valid  bool
		tokens []string
		value  any
		found  bool
		why    string
	}{
		{"", true, nil, doc, true, "the empty pointer is the document"},
		{"/a/b~1c/1", true, []string{"a", "b/c", "1"}, "x", true, "~1 is '/'"},
		{"/a/m~0n", true, []string{"a", "m~n"}, true, true, "~0 is '~'"},
		{"/a/", true, []string{"a", ""}, "empty", true, "an empty token is the empty name"},
		{"/~01", true, []string{"~1"}, nil, false, "~0 first, so ~01 is \"~1\", not '/'"},
		{"/arr/1", true, []string{"arr", "1"}, json.Number("1"), true, "an index"},
		{"/arr/2", true, []string{"arr", "2"}, nil, false, "past the end"},
		{"/arr/01", true, []string{"arr", "01"}, nil, false, "no leading zero"},
		{"/arr/-", true, []string{"arr", "-"}, nil, false, "the element after the last names nothing"},
		{"/arr/1/x", true, []string{"arr", "1", "x"}, nil, false, "no step into a number"},
		{"a", false, nil, nil, false, "a pointer starts with '/'"},
		{"/~2", false, nil, nil, false, "~ only before 0 or 1"},
		{"/a~", false, nil, nil, false, "~ at the end"},
		{"#/a", false, nil, nil, false, "the URI fragment form is not a pointer"},
	}
	for _, tt := range tests {
		type result struct {
			Valid  bool
			Tokens []string
			Value  any
			Found  bool
		}
		v, found := judge.Lookup(doc, tt.ptr)
		got := result{judge.ValidPointer(tt.ptr), judge.PointerTokens(tt.ptr), v, found}
		want := result{tt.valid, tt.tokens, tt.value, tt.found}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q (%s) (-want +got):\n%s", tt.ptr, tt.why, diff)
		}
	}
}

func TestEscapePointerToken(t *testing.T) {
	for s, want := range map[string]string{"": "", "a": "a", "~/": "~0~1", "/~": "~1~0", "~1": "~01"} {
		if got := judge.EscapePointerToken(s); got != want {
			t.Errorf("EscapePointerToken(%q) = %q, want %q", s, got, want)
		}
		if tokens := judge.PointerTokens("/" + want); len(tokens) != 1 || tokens[0] != s {
			t.Errorf("PointerTokens(/%s) = %q, want [%q]: escaping must round-trip", want, tokens, s)
		}
	}
}

func TestPointerIndex(t *testing.T) {
	tests := []struct {
		tok  string
		n    int
		want int
		ok   bool
		why  string
	}{
		{"0", 1, 0, true, "the first element"},
		{"0", 0, 0, false, "an empty array has none"},
		{"9", 10, 9, true, "the last element"},
		{"10", 10, 0, false, "past the end"},
		{"5", 1, 0, false, "a digit past a short array"},
		{"00", 5, 0, false, "leading zero"},
		{"", 5, 0, false, "empty token"},
		{"-", 5, 0, false, "the append position"},
		{"+1", 5, 0, false, "no sign"},
		{"9223372036854775806", math.MaxInt, 9223372036854775806, true, "the largest index of the largest array"},
		{"99999999999999999999", math.MaxInt, 0, false, "beyond int, no overflow"},
		{"\u0661", 5, 0, false, "ASCII digits only"},
	}
	for _, tt := range tests {
		got, ok := judge.PointerIndex(tt.tok, tt.n)
		if got != tt.want || ok != tt.ok {
			t.Errorf("PointerIndex(%q, %d) = %d, %v; want %d, %v (%s)", tt.tok, tt.n, got, ok, tt.want, tt.ok, tt.why)
		}
	}
}

func TestLookupNeverPanics(t *testing.T) {
	for _, doc := range []any{nil, "s", json.Number("1"), map[string]string{"a": "b"}, []string{"x"}, []any{nil}, map[string]any{"a": nil}} {
		for _, ptr := range []string{"", "/", "/a", "/0", "/a/0", "/0/0"} {
			judge.Lookup(doc, ptr) // must not panic
		}
	}
}
