package variant_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/internal/authoring/openapi"
	"github.com/toolcert/toolcert/internal/authoring/scaffold"
	"github.com/toolcert/toolcert/variant"
)

// importTool writes the corpus of one operation of an OpenAPI
// description, as toolcert fixtures import does, and returns it.
func importTool(t *testing.T, spec string, sel openapi.Selector, keep []string, args map[string]string) *corpus.Corpus {
	t.Helper()
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	d, err := openapi.Load(b, openapi.Options{BaseDir: filepath.Dir(spec)})
	if err != nil {
		t.Fatal(err)
	}
	op, err := d.Operation(sel)
	if err != nil {
		t.Fatal(err)
	}
	tool, err := op.Tool(openapi.ToolOptions{Name: "imported", Keep: keep})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	res, err := scaffold.Write(root, tool, scaffold.Options{Arguments: args, Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Problems {
		t.Errorf("lint: %s", p)
	}
	return corpus.New(os.DirFS(root))
}

// TestOracleOnImportedCorpora: every variant of corpora written by the
// import, with what imports are full of (nullable members, a nullable
// object as a oneOf with null, lists, date formats), expects what the
// oracle does.
func TestOracleOnImportedCorpora(t *testing.T) {
	lim := corpus.Limits{MaxBytes: 1 << 16, MaxDepth: 32, Freshness: 5 * time.Minute, Skew: 30 * time.Second}
	tracker := importTool(t, "testdata/tracker-3.1.yaml", openapi.Selector{OperationID: "getTicket"},
		[]string{"/id", "/title", "/status", "/assignee/login", "/due_date", "/updated_at"}, nil)
	checkOracle(t, tracker, variant.Options{MaxBytes: lim.MaxBytes, MaxDepth: lim.MaxDepth}, lim)
	reviews := importTool(t, "../examples/reviews/openapi.yaml", openapi.Selector{OperationID: "pulls/list-reviews"},
		[]string{"/*"}, map[string]string{"owner": "octo-org", "repo": "hello-world", "pull_number": "1347"})
	checkOracle(t, reviews, variant.Options{MaxBytes: lim.MaxBytes, MaxDepth: lim.MaxDepth}, lim)

	vs, err := variant.Generate(tracker, variant.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range vs {
		ids = append(ids, v.ID)
	}
	for _, want := range []string{
		"imported/open/type_swap/assignee/login#number", // inside the oneOf with null
		"imported/open/extra_property/assignee",
		"imported/open/bad_format/due_date",
	} {
		if !slices.Contains(ids, want) {
			t.Errorf("no variant %s among:\n%s", want, strings.Join(ids, "\n"))
		}
	}
}
