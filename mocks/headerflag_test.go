package mocks_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/mocks"
)

func TestHeaderFlag(t *testing.T) {
	var h mocks.HeaderFlag
	for _, v := range []string{"X-A: 1", " X-B :two: parts ", "X-C:"} {
		if err := h.Set(v); err != nil {
			t.Fatalf("Set(%q): %v", v, err)
		}
	}
	want := mocks.HeaderFlag{{Name: "X-A", Value: "1"}, {Name: "X-B", Value: "two: parts"}, {Name: "X-C", Value: ""}}
	if diff := cmp.Diff(want, h); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"no colon", ": no name", "   : blank name"} {
		if err := h.Set(bad); err == nil {
			t.Errorf("Set(%q) accepted a line without a name", bad)
		}
	}
}
