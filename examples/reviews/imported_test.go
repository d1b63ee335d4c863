package reviews_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/corpus"
)

// importArgs are the flags docs/certify-from-openapi.md gives
// toolcert fixtures import.
var importArgs = []string{"fixtures", "import", "--openapi", "openapi.yaml",
	"--operation", "GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews", "--tool", "pull_request_reviews",
	"--keep", "/*/id,/*/state,/*/user/login,/*/submitted_at"}

// TestImportedCorpus imports the route from openapi.yaml again and checks
// that imported/fixtures is what the import writes, with the owner's
// decisions made: every entry of "decide" deleted (nothing bound, nothing
// fresh, the list narrowed, the projection reviewed), and nothing else
// changed. The committed folder lints clean, with no decision open.
func TestImportedCorpus(t *testing.T) {
	toolcert := build(t, t.TempDir(), "toolcert", "../../cmd/toolcert")
	out := t.TempDir()
	if b, err := exec.Command(toolcert, append(importArgs, "--out", out)...).CombinedOutput(); err != nil {
		t.Fatalf("toolcert fixtures import: %v\n%s", err, b)
	}
	fresh := filepath.Join(out, "pull_request_reviews")
	committed := filepath.Join("imported", "fixtures", "pull_request_reviews")
	files := 0
	err := filepath.WalkDir(fresh, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "NOTES.md" {
			return err
		}
		files++
		rel, _ := filepath.Rel(fresh, p)
		want, got := readFile(t, p), readFile(t, filepath.Join(committed, rel))
		if rel == "tool.json" {
			var doc map[string]any
			if err := json.Unmarshal(want, &doc); err != nil {
				t.Fatal(err)
			}
			if len(doc["decide"].([]any)) == 0 {
				t.Error("the import left nothing to decide")
			}
			delete(doc, "decide")
			if diff := cmp.Diff(doc, decode(t, got)); diff != "" {
				t.Errorf("%s differs from the import but for its decisions (-import +committed):\n%s", rel, diff)
			}
			return nil
		}
		if string(want) != string(got) {
			t.Errorf("%s differs from what the import writes: import again (docs/certify-from-openapi.md)", rel)
		}
		return nil
	})
	if err != nil || files < 6 {
		t.Fatalf("%d files compared: %v", files, err)
	}
	c := corpus.New(os.DirFS(filepath.Join("imported", "fixtures")))
	if p := corpus.Lint(c, time.Now(), corpus.DefaultLimits()); p != nil {
		t.Errorf("lint: %v", p)
	}
	if d := corpus.Undecided(c); d != nil {
		t.Errorf("open decisions: %v", d)
	}
	if got, want := readFile(t, "imported/features/mcp_server.feature"), readFile(t, "../../features/mcp_server.feature"); string(got) != string(want) {
		t.Errorf("imported/features/mcp_server.feature is not a copy of the repository's: copy it again")
	}
}

// TestImportedCertify runs the imported corpus, with no scenario written
// by hand, against the naive server and the fixed one: it finds what the
// hand-written corpus finds (TestCertify), and passes the fixed server.
func TestImportedCertify(t *testing.T) {
	bins := t.TempDir()
	toolcert := build(t, bins, "toolcert", "../../cmd/toolcert")
	server := build(t, bins, "reviews-server", "./server")
	const config = "imported/toolcert.yaml"

	t.Run("naive server fails with the three faults", func(t *testing.T) {
		res, code := certifyWith(t, config, toolcert, server)
		if code != 1 || res.Summary.CasesFailed == 0 || res.Summary.Leaks == 0 {
			t.Fatalf("exit %d, summary %+v: want 1, failed cases and leaks", code, res.Summary)
		}
		checkFindings(t, res, []finding{{
			"a duplicate member's last value reaches the agent",
			"pull_request_reviews/default/duplicate_member/0/state#first",
			leakOf("duplicate_member/0/state#first placeholder dup", "structuredContent"),
		}, {
			"the upstream's error message reaches the agent",
			"pull_request_reviews/default/upstream_status#404",
			leakOf("upstream_status#404 placeholder status", "content[0] text"),
		}, {
			"a null body is accepted as a success",
			"pull_request_reviews/default/null_for_array",
			nullTakenForAList,
		}})
	})

	t.Run("fixed server passes", func(t *testing.T) {
		res, code := certifyWith(t, config, toolcert, server, "--fixed")
		checkPassed(t, res, code, 100)
	})
}
