package steps

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/gate"
)

func TestInsertMember(t *testing.T) {
	tests := []struct {
		name, doc, pointer, want string
	}{
		{"top level", `{"a": 1}`, "", `{"x": "c", "a": 1}`},
		{"empty object", `{}`, "", `{"x": "c"}`},
		{"nested", `{"a": {"b": 1}}`, "/a", `{"a": {"x": "c", "b": 1}}`},
		{"in an array", `{"a": [{"b": 1}]}`, "/a/0", `{"a": [{"x": "c", "b": 1}]}`},
		{"keeps duplicates and odd bytes", "{\"a\":1,\"a\":2,\"s\":\"\xff\"}", "", "{\"x\": \"c\", \"a\":1,\"a\":2,\"s\":\"\xff\"}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := insertMember([]byte(tt.doc), tt.pointer, "x", "c")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("insertMember mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestInsertMemberNoObject(t *testing.T) {
	for _, doc := range []string{`[1]`, `{"a": 1}`, `not json`} {
		if _, err := insertMember([]byte(doc), "/a", "x", "c"); err == nil {
			t.Errorf("insertMember(%q, /a) succeeded, want an error", doc)
		}
	}
}

func TestNestedDepth(t *testing.T) {
	lim := gate.Limits{MaxBytes: 1 << 20, MaxDepth: 32}
	if _, err := gate.ParseJSON(nested(32, "x"), lim); err != nil {
		t.Errorf("depth 32 rejected by a depth-32 parser: %v", err)
	}
	if _, err := gate.ParseJSON(nested(33, "x"), lim); err == nil {
		t.Error("depth 33 accepted by a depth-32 parser")
	}
}
