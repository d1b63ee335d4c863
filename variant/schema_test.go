package variant

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRuleMergesAllOf(t *testing.T) {
	r, err := parseRule([]byte(`{"type": "object", "unevaluatedProperties": false,
	  "allOf": [{"properties": {"a": {"type": "string"}}, "required": ["a"]},
	            {"properties": {"b": {"const": 1}, "a": {"maxLength": 3}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "b"}, r.propOrder); diff != "" {
		t.Errorf("properties (-want +got):\n%s", diff)
	}
	if !r.closed || !r.isRequired("a") || r.at("/a").maxLength != 3 || r.at("/a").types[0] != "string" {
		t.Errorf("merged rule = %+v", r)
	}
}

func TestJudge(t *testing.T) {
	tests := []struct {
		name, schema, lit string
		want              verdict
	}{
		{"type", `{"type": "integer"}`, `1.5`, refuses},
		{"whole number is an integer", `{"type": "integer"}`, `2.0`, accepts},
		{"enum", `{"enum": ["a", "b"]}`, `"c"`, refuses},
		{"const", `{"const": "run"}`, `"run"`, accepts},
		{"maxLength counts characters", `{"maxLength": 2}`, `"éé"`, accepts},
		{"pattern", `{"pattern": "^[a-z]+$"}`, `"ab1"`, refuses},
		{"date-time lower case", `{"format": "date-time"}`, `"2026-11-29t16:00:00z"`, accepts},
		{"date-time without zone", `{"format": "date-time"}`, `"2026-11-29T16:00:00"`, refuses},
		{"relative uri", `{"format": "uri"}`, `"/diag/x"`, refuses},
		{"unknown format", `{"format": "email"}`, `"x"`, unsure},
		{"unknown keyword", `{"anyOf": [{"type": "string"}]}`, `"x"`, unsure},
		{"minimum", `{"minimum": 1}`, `0`, refuses},
		{"canary under both renderings", `{"maxLength": 10}`, `"{{canary:x}}"`, unsure},
		{"canary fits both renderings", `{"pattern": "^req\\.[a-z0-9]+$"}`, `"req.{{canary:forged}}"`, accepts},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := parseRule([]byte(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			if got := r.judge(tt.lit); got != tt.want {
				t.Errorf("judge(%s) = %d, want %d", tt.lit, got, tt.want)
			}
		})
	}
}
