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
		{"number", json.Number("1347"), "1347", true, "an integer binds to its digits"},
		{"negative number", json.Number("-7"), "-7", true, "and a negative one"},
		{"number's other spelling", json.Number("1.347e3"), "1347", false, "only the shortest integer form binds"},
		{"fraction", json.Number("1347.0"), "1347", false, "a fraction is no integer"},
		{"leading zero argument", json.Number("1347"), "01347", false, "the argument's digits in their shortest form only"},
		{"another number", json.Number("1348"), "1347", false, "another object"},
		{"true", true, "true", true, "a boolean binds to its word"},
		{"false", false, "true", false, "not to the other"},
		{"object", map[string]any{}, "{}", false, "an object never binds"},
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
