package mutant

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/gate"
)

// TestParseFolded: a member repeated in another case replaces the first,
// under the first's name, as encoding/json into a struct does; every
// other document is read as gate.ParseJSON reads it.
func TestParseFolded(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		want      any
	}{
		{"plain", `{"a": 1, "b": ["x", true, null]}`, map[string]any{"a": json.Number("1"), "b": []any{"x", true, nil}}},
		{"folded, last wins", `{"decision": "approved", "Decision": "rejected"}`, map[string]any{"decision": "rejected"}},
		{"nested", `{"o": {"Login": "a", "login": "b"}}`, map[string]any{"o": map[string]any{"Login": "b"}}},
	} {
		got, err := parseFolded([]byte(tc.raw), gate.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}
