package openapi

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// update rewrites the golden files: go test ./internal/authoring/openapi -update.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden compares every test operation, rendered as text with each
// schema and example exactly as produced, with its golden file: the
// schemas as people will read them, keyword order included.
func TestGolden(t *testing.T) {
	for _, tc := range operationCases {
		name := goldenName(tc)
		t.Run(name, func(t *testing.T) {
			op := operation(t, loadFile(t, tc.file, tc.opts), tc.sel)
			got := []byte(goldenText(op))
			path := filepath.Join("testdata", "golden", name+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", path, diff)
			}
		})
	}
}

// goldenText renders op: a header line per operation, parameter,
// response and example, each schema and example as produced, the notes.
func goldenText(op *Operation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (%s)\nsummary: %s\n", op.Method, op.Path, op.OperationID, op.Summary)
	for _, p := range op.Parameters {
		fmt.Fprintf(&b, "\n== parameter %s in %s, required %v\n%s\n", p.Name, p.In, p.Required, p.Schema)
		if p.Example != nil {
			fmt.Fprintf(&b, "-- example\n%s\n", p.Example)
		}
	}
	for _, r := range op.Responses {
		fmt.Fprintf(&b, "\n== response %s %s\n", r.Status, r.MediaType)
		if r.Schema != nil {
			fmt.Fprintf(&b, "%s\n", r.Schema)
		}
		for _, e := range r.Examples {
			fmt.Fprintf(&b, "-- example %s\n%s\n", e.Name, e.Value)
		}
	}
	if len(op.Notes) > 0 {
		b.WriteString("\n== notes\n")
	}
	for _, n := range op.Notes {
		fmt.Fprintf(&b, "%s: %s\n", n.Pointer, n.Message)
	}
	return b.String()
}

// goldenName names the golden file of tc: the description and the
// operation.
func goldenName(tc operationCase) string {
	sel := tc.sel.OperationID
	if sel == "" {
		sel = tc.sel.Method + tc.sel.Path
	}
	name := strings.TrimSuffix(tc.file, filepath.Ext(tc.file)) + "_" + sanitizeName(strings.ToLower(sel))
	if tc.opts.Open {
		name += "_open"
	}
	return name
}
