package judge_test

import (
	"encoding/json"
	"testing"

	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
)

func TestEqual(t *testing.T) {
	tests := []struct {
		name string
		got  any
		want string
		ok   bool
		why  string
	}{
		{"same", "CR-1", "CR-1", true, "the requested id"},
		{"other", "CR-2", "CR-1", false, "another id"},
		{"number", json.Number("1"), "1", false, "a number is not the string"},
		{"missing", nil, "", false, "a missing field never binds, even to an empty argument"},
		{"case", "cr-1", "CR-1", false, "exact comparison"},
	}
	for _, tt := range tests {
		err := judge.Equal("/id", tt.got, tt.want)
		if tt.ok != (err == nil) {
			t.Errorf("%s: Equal = %v, want ok %v (%s)", tt.name, err, tt.ok, tt.why)
		}
		if r, isRejection := judge.AsRejection(err); err != nil && (!isRejection || r.Gate != protocol.GateSemantic || r.Reason != protocol.ReasonBindingMismatch) {
			t.Errorf("%s: Equal = %v, want semantic binding_mismatch", tt.name, err)
		}
	}
}
