package reviews_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/reports"
)

// minCases is the fewest generated variants the reviews corpus must yield;
// a drop means the corpus or the generator lost coverage.
const minCases = 550

// TestLint checks the example corpus as `toolcert fixtures lint` does: it
// is clean.
func TestLint(t *testing.T) {
	c := corpus.New(os.DirFS("fixtures"))
	for _, p := range corpus.Lint(c, time.Now(), corpus.DefaultLimits()) {
		t.Error(p)
	}
}

// TestPinnedSchemas checks that the fixed server pins the corpus's vendor
// schema and declares the contract's data as its output schema, and that
// the features run the repository's MCP scenarios unchanged.
func TestPinnedSchemas(t *testing.T) {
	c := corpus.New(os.DirFS("fixtures"))
	tool, err := c.Tool("pull_request_reviews")
	if err != nil {
		t.Fatal(err)
	}
	vendor, err := c.UpstreamSchema(tool, "v1")
	if err != nil {
		t.Fatal(err)
	}
	contract := decode(t, readFile(t, "fixtures/pull_request_reviews/contract.json")).(map[string]any)
	data := contract["oneOf"].([]any)[0].(map[string]any)["properties"].(map[string]any)["data"]

	output := decode(t, readFile(t, "server/schemas/list_pull_request_reviews.output.json")).(map[string]any)
	delete(output, "$schema")
	delete(output, "title")
	if diff := cmp.Diff(data, any(output)); diff != "" {
		t.Errorf("the output schema differs from the contract's data (-contract +pinned):\n%s", diff)
	}
	if diff := cmp.Diff(decode(t, vendor), decode(t, readFile(t, "server/schemas/reviews.vendor.v1.json"))); diff != "" {
		t.Errorf("the pinned vendor schema differs from the corpus's (-corpus +pinned):\n%s", diff)
	}
	if got, want := readFile(t, "features/mcp_server.feature"), readFile(t, "../../features/mcp_server.feature"); string(got) != string(want) {
		t.Errorf("features/mcp_server.feature is not a copy of the repository's: copy it again")
	}
}

// TestCertify builds toolcert and the server, runs toolcert.yaml against
// the naive server and the fixed one, and checks what each run found.
func TestCertify(t *testing.T) {
	bins := t.TempDir()
	toolcert := build(t, bins, "toolcert", "../../cmd/toolcert")
	server := build(t, bins, "reviews-server", "./server")

	t.Run("naive server fails with the three faults", func(t *testing.T) {
		res, code := certify(t, toolcert, server)
		if code != 1 || res.Summary.Failed == 0 || res.Summary.Leaks == 0 {
			t.Fatalf("exit %d, summary %+v: want 1, failed scenarios and leaks", code, res.Summary)
		}
		checkFindings(t, res, []finding{{
			"a duplicate member's last value reaches the agent",
			"reviews.feature: a duplicate reviewer leaks nothing",
			leakOf("duplicate_user.json placeholder login", "structuredContent"),
		}, {
			"a generated duplicate's last value reaches the agent",
			"pull_request_reviews/several/duplicate_member/0/state#first",
			leakOf("duplicate_member/0/state#first placeholder dup", "structuredContent"),
		}, {
			"the upstream's error message reaches the agent",
			"reviews.feature: the upstream's error message never reaches the agent",
			leakOf("the scenario's body placeholder message", "content[0] text"),
		}, {
			"a null body is accepted as a success",
			"reviews.feature: a null body is not a pull request without reviews",
			nullTakenForAList,
		}})
	})

	t.Run("fixed server passes", func(t *testing.T) {
		res, code := certify(t, toolcert, server, "--fixed")
		checkPassed(t, res, code, minCases)
	})
}

// build builds the package pkg into dir as name and returns its path.
func build(tb testing.TB, dir, name, pkg string) string {
	tb.Helper()
	bin := filepath.Join(dir, name)
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		tb.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// certify runs `toolcert run --config toolcert.yaml` against the server
// binary started with args and returns the result and the exit code.
func certify(tb testing.TB, toolcert, server string, args ...string) (*reports.Result, int) {
	tb.Helper()
	return certifyWith(tb, "toolcert.yaml", toolcert, server, args...)
}

// certifyWith runs `toolcert run --config config` against the server
// binary started with args and returns the result and the exit code.
func certifyWith(tb testing.TB, config, toolcert, server string, args ...string) (*reports.Result, int) {
	tb.Helper()
	out := tb.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, toolcert, "run", "--config", config,
		"--target-mcp-cmd", strings.Join(append([]string{server}, args...), " "),
		"--seed", "42", "--out", out, "--quiet")
	output, err := cmd.CombinedOutput()
	code := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		tb.Fatalf("toolcert run: %v\n%s", err, output)
	}
	res, err := reports.LoadResult(filepath.Join(out, "results.json"))
	if err != nil {
		tb.Fatalf("toolcert run exited %d: %v\n%s", code, err, output)
	}
	return res, code
}

// checkPassed checks a run that passed whole: exit 0, every scenario
// passed or not applicable, no leak, at least minCases generated cases and
// none failed.
func checkPassed(t *testing.T, res *reports.Result, code, minCases int) {
	t.Helper()
	s := res.Summary
	if code != 0 || s.Failed != 0 || s.Skipped != 0 || s.Leaks != 0 || s.Passed+s.NotApplicable != s.Scenarios {
		t.Errorf("exit %d, summary %+v: want 0, no failure, no leak", code, s)
	}
	if s.Cases < minCases || s.CasesFailed != 0 {
		t.Errorf("generated cases: %d run, %d failed; want at least %d, none failed", s.Cases, s.CasesFailed, minCases)
	}
}

// finding is a fault a run must report: the scenario or generated case
// that fails, and evidence it must carry.
type finding struct {
	name, id string
	match    func(reports.Evidence) bool
}

// checkFindings checks that each finding's scenario or case failed with
// such evidence.
func checkFindings(t *testing.T, res *reports.Result, findings []finding) {
	t.Helper()
	for _, f := range findings {
		evs, ok := failed(res, f.id)
		if !ok {
			t.Errorf("%s: %q did not fail", f.name, f.id)
			continue
		}
		if !anyOf(evs, f.match) {
			t.Errorf("%s: %q has no such evidence; it has %+v", f.name, f.id, evs)
		}
	}
}

// nullTakenForAList matches the contract's refusal of a null list.
func nullTakenForAList(ev reports.Evidence) bool {
	return strings.Contains(ev.Message, "at '/data/reviews': got null, want array")
}

// failed returns the evidence of the scenario or generated case id, and
// whether it failed.
func failed(res *reports.Result, id string) ([]reports.Evidence, bool) {
	for _, sc := range res.Scenarios {
		if sc.ID == id {
			return sc.Evidence, sc.Status == reports.Failed
		}
		for _, c := range sc.Cases {
			if c.ID == id {
				return c.Evidence, c.Status == reports.Failed
			}
		}
	}
	return nil, false
}

// leakOf matches the leak of a canary planted where planted says that
// surfaced in surfaced.
func leakOf(planted, surfaced string) func(reports.Evidence) bool {
	return func(ev reports.Evidence) bool {
		return ev.Kind == reports.EvidenceLeak && strings.Contains(ev.Planted, planted) && ev.Surfaced == surfaced
	}
}

// anyOf reports whether some evidence matches.
func anyOf(evs []reports.Evidence, match func(reports.Evidence) bool) bool {
	for _, ev := range evs {
		if match(ev) {
			return true
		}
	}
	return false
}

// readFile returns a file's bytes.
func readFile(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// decode parses a JSON document for comparison.
func decode(tb testing.TB, b []byte) any {
	tb.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		tb.Fatalf("decode: %v", err)
	}
	return v
}
