package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/internal/authoring/openapi"
	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/variant"
)

// TestFixturesImport imports the review list of a code host from an
// OpenAPI 3.0, a 3.1 and a Swagger 2.0 description: each corpus lints
// clean with its decisions open, the generator expands it, and its
// upstream schema accepts every example the description gives.
func TestFixturesImport(t *testing.T) {
	for _, spec := range []string{"github-3.0.yaml", "github-3.1.yaml", "github-2.0.json"} {
		t.Run(spec, func(t *testing.T) {
			path := filepath.Join("..", "..", "internal", "authoring", "openapi", "testdata", spec)
			out := t.TempDir()
			code, stdout, stderr := runCLI(t, "fixtures", "import", "--openapi", path, "--operation-id", "pulls/list-reviews",
				"--tool", "reviews", "--out", out, "--keep", "/*", "--args", `{"owner": "octo-org", "repo": "hello-world", "pull_number": 1347}`)
			if code != exitPass {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			c := corpus.New(os.DirFS(out))
			if p := corpus.Lint(c, time.Now(), corpus.Limits{}); p != nil {
				t.Errorf("lint: %v", p)
			}
			if len(corpus.Undecided(c)) == 0 {
				t.Error("no decision left open: the binding and freshness are the owner's")
			}
			vs, err := variant.Generate(c, variant.Options{Seed: 1})
			if err != nil || len(vs) < 30 {
				t.Errorf("%d variants (%v): want the generator to expand the import", len(vs), err)
			}
			checkDescriptionExamples(t, path, filepath.Join(out, "reviews", "upstream", "v1.schema.json"))
		})
	}
}

// checkDescriptionExamples validates every example of the description's
// success against the imported upstream schema.
func checkDescriptionExamples(t *testing.T, spec, schemaFile string) {
	t.Helper()
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	d, err := openapi.Load(b, openapi.Options{BaseDir: filepath.Dir(spec)})
	if err != nil {
		t.Fatal(err)
	}
	op, err := d.Operation(openapi.Selector{OperationID: "pulls/list-reviews"})
	if err != nil {
		t.Fatal(err)
	}
	sch, err := judge.Compile("imported", readBytes(t, schemaFile))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range op.Responses {
		if !strings.HasPrefix(r.Status, "2") {
			continue
		}
		for _, x := range r.Examples {
			doc, err := judge.ParseJSON(x.Value, judge.Limits{MaxDepth: 64})
			if err == nil {
				err = sch.Validate(doc)
			}
			if err != nil {
				t.Errorf("the imported schema refuses the description's example %s: %v", x.Name, err)
			}
			n++
		}
	}
	if n == 0 {
		t.Error("the description gives no example to check")
	}
}

func readBytes(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFixturesImportRefuses(t *testing.T) {
	spec := filepath.Join("..", "..", "internal", "authoring", "openapi", "testdata", "github-3.0.yaml")
	out := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--tool", "x"}, "--openapi is required"},
		{[]string{"--openapi", spec, "--tool", "x"}, "give one of --operation"},
		{[]string{"--openapi", spec, "--tool", "x", "--operation", "GET"}, `want "METHOD /path"`},
		{[]string{"--openapi", spec, "--tool", "x", "--operation", "GET /repos/{owner}/{repo}/pull/{pull_number}/reviews"}, "/repos/{owner}/{repo}/pulls/{pull_number}/reviews"},
		{[]string{"--openapi", spec, "--tool", "x", "--operation-id", "pulls/list-reviews", "--out", out}, "its members: /*/"},
		{[]string{"--openapi", spec, "--tool", "x", "--operation-id", "pulls/list-reviews", "--keep", "/*/colour", "--out", out}, "the schema declares nothing at /*/colour"},
		{[]string{"--openapi", spec, "--tool", "x", "--operation-id", "pulls/get", "--keep", "/x", "--out", out}, "declares no 2xx answer with a JSON body schema (it declares 304)"},
		{[]string{"--openapi", "nowhere.yaml", "--tool", "x", "--operation-id", "y"}, "no such file"},
		{[]string{"--openapi", "/dev/null", "--tool", "x", "--operation-id", "y"}, "/dev/null is not a regular file"},
		{[]string{"--openapi", spec, "--tool", "x", "--operation-id", "pulls/list-reviews", "--keep", "/*", "--args", "[1]"}, "--args: not a JSON object"},
	}
	for _, tt := range tests {
		code, _, stderr := runCLI(t, append([]string{"fixtures", "import"}, tt.args...)...)
		if code != exitConfig || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
}

// petStore is the hand-written pet store of the openapi package's tests
// (no example in it), in OpenAPI 3.0 or Swagger 2.0.
func petStore(version string) string {
	return filepath.Join("..", "..", "internal", "authoring", "openapi", "testdata", "petstore-"+version+".yaml")
}

// importAndLint imports with args into a new corpus and lints it: the
// import exits 0, and so does toolcert fixtures lint (its decisions may
// be open). It returns the corpus folder.
func importAndLint(t *testing.T, args ...string) string {
	t.Helper()
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, append([]string{"fixtures", "import", "--out", out}, args...)...)
	if code != exitPass {
		t.Fatalf("import %q: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, "fixtures", "lint", "--fixtures", out)
	if code != exitPass {
		t.Fatalf("lint after import %q: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, stdout, stderr)
	}
	if p := corpus.Lint(corpus.New(os.DirFS(out)), time.Now(), corpus.Limits{}); p != nil {
		t.Errorf("lint after import %q: %v", args, p)
	}
	return out
}

// TestFixturesImportKeepsOptional imports the pet store's GET
// /pets/{petId}, which has no example, keeping the optional tag: the
// minimal example made has it, and the corpus lints.
func TestFixturesImportKeepsOptional(t *testing.T) {
	for _, version := range []string{"3.0", "2.0"} {
		out := importAndLint(t, "--openapi", petStore(version), "--operation", "GET /pets/{petId}", "--tool", "pet", "--keep", "/name,/tag")
		body := string(readBytes(t, filepath.Join(out, "pet", "accepted", "minimal.json")))
		if !strings.Contains(body, `"tag"`) || !strings.Contains(body, `"name"`) {
			t.Errorf("%s: the minimal example lacks a kept member: %s", version, body)
		}
	}
}

// TestFixturesImportWhole keeps the whole answer with --keep '#': a
// scalar (the count of pets) and an object (a pet, its owner), each one
// field named by --data-name or the route's last word; each corpus lints
// and the generator expands it.
func TestFixturesImportWhole(t *testing.T) {
	for _, tc := range []struct {
		operation string
		args      []string
		field     string
	}{
		{"GET /pets/count", nil, "count"},
		{"GET /pets/{petId}", []string{"--data-name", "pet"}, "pet"},
		{"GET /pets/{petId}/owner", nil, "owner"},
	} {
		args := append([]string{"--openapi", petStore("3.0"), "--operation", tc.operation, "--tool", "t", "--keep", "#"}, tc.args...)
		out := importAndLint(t, args...)
		var tool struct {
			Versions map[string]struct {
				Project map[string]string `json:"project"`
			} `json:"versions"`
		}
		if err := json.Unmarshal(readBytes(t, filepath.Join(out, "t", "tool.json")), &tool); err != nil {
			t.Fatal(err)
		}
		if got := tool.Versions["v1"].Project; len(got) != 1 || got[tc.field] != "" {
			t.Errorf("%s: project %v, want {%q: \"\"}", tc.operation, got, tc.field)
		}
		if vs, err := variant.Generate(corpus.New(os.DirFS(out)), variant.Options{Seed: 1}); err != nil || len(vs) == 0 {
			t.Errorf("%s: %d variants (%v): want the generator to expand the import", tc.operation, len(vs), err)
		}
	}
	code, _, stderr := runCLI(t, "fixtures", "import", "--openapi", petStore("3.0"), "--operation", "GET /pets/{petId}", "--tool", "t", "--keep", "/name,", "--out", t.TempDir())
	if code != exitConfig || !strings.Contains(stderr, "the whole answer is #") {
		t.Errorf("--keep '/name,': exit %d, %s: want 2 and the spelling of the whole answer", code, stderr)
	}
}
