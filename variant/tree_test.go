package variant

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTreeRoundTrip(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"spacing becomes one line", "{\n  \"a\": 1,\n  \"b\": [true, null]\n}\n", `{"a": 1, "b": [true, null]}`},
		{"escapes and placeholders kept", `{"\u0061": "x\"{{canary:c}}\u00e9"}`, `{"\u0061": "x\"{{canary:c}}\u00e9"}`},
		{"numbers as written", `[1.50, -0, 2e3]`, `[1.50, -0, 2e3]`},
		{"empty containers", `{"o": {}, "a": []}`, `{"o": {}, "a": []}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := parseTree([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(n.encode())); diff != "" {
				t.Errorf("encode mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTreeRefusesWhatIsNotOneDocument(t *testing.T) {
	for _, in := range []string{`{"a": 1} {}`, `{"a": {{now}}}`, `{"a": 1, "a": 2}`, ``} {
		if _, err := parseTree([]byte(in)); err == nil {
			t.Errorf("parseTree(%q) succeeded", in)
		}
	}
}

func TestPointers(t *testing.T) {
	n, err := parseTree([]byte(`{"a/b": {"c~d": [10, 20]}, "e": "f"}`))
	if err != nil {
		t.Fatal(err)
	}
	var ptrs []string
	n.visit("", func(ptr string, _ *node) bool { ptrs = append(ptrs, ptr); return true })
	want := []string{"", "/a~1b", "/a~1b/c~0d", "/a~1b/c~0d/0", "/a~1b/c~0d/1", "/e"}
	if diff := cmp.Diff(want, ptrs); diff != "" {
		t.Errorf("visit pointers (-want +got):\n%s", diff)
	}
	if got := n.at("/a~1b/c~0d/1"); got == nil || got.lit != "20" {
		t.Errorf("at = %+v, want 20", got)
	}
	if !n.set("/e", strNode("{{canary:x}}")) || !n.hasCanary("") || n.hasCanary("/e") {
		t.Error("set or hasCanary disagree")
	}
	if n.set("/nope/x", litNode("1")) || n.at("/e/x") != nil {
		t.Error("set or at found a missing pointer")
	}
}
