package openapi

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolcert/toolcert/internal/judge"
)

// chainComponents returns n component schemas, s0 to s(n-1), each with
// fan $refs to the next.
func chainComponents(n, fan int) string {
	var parts []string
	for i := range n {
		var props []string
		for k := range fan {
			ref := `{"type": "string"}`
			if i+1 < n {
				ref = fmt.Sprintf(`{"$ref": "#/components/schemas/s%d"}`, i+1)
			}
			props = append(props, fmt.Sprintf(`"p%d": %s`, k, ref))
		}
		parts = append(parts, fmt.Sprintf(`"s%d": {"type": "object", "required": ["p0"], "properties": {%s}}`, i, strings.Join(props, ", ")))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// TestInlineLimits checks that a schema whose inlining would explode (a
// DAG of shared schemas) or nest past the judge's depth keeps the rest
// in $defs, and still compiles, is closed, and has a Minimal instance.
func TestInlineLimits(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n, fan  int
		note    string
		pointer string
	}{
		{"two refs a level, 24 levels: 16 million inlines", 24, 2, "after 5000 inlined schemas", "/components/schemas/s"},
		{"one ref a level, 100 levels: too deep to inline", 100, 1, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			schema, notes := convertSnippet(t, "3.0.3", `{"$ref": "#/components/schemas/s0"}`, chainComponents(tc.n, tc.fan), false)
			if !strings.Contains(string(schema), `"$defs"`) {
				t.Errorf("no $defs in a schema of %d bytes", len(schema))
			}
			mustCompile(t, tc.name, schema)
			if err := judge.Closed(schema); err != nil {
				t.Error(err)
			}
			if _, err := Minimal(schema); err != nil {
				t.Errorf("Minimal: %v", err)
			}
			if tc.note == "" {
				checkNotes(t, notes, nil)
				return
			}
			if len(notes) != 1 || !strings.HasPrefix(notes[0].Pointer, tc.pointer) || !strings.Contains(notes[0].Message, tc.note) {
				t.Errorf("notes %v, want one on the budget", notes)
			}
		})
	}
}
