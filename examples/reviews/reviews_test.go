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
const minCases = 750

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
		if code != 1 || res.Summary.Failed == 0 || res.Summary.Leaks == 0 || res.Summary.Marks == 0 {
			t.Fatalf("exit %d, summary %+v: want 1, failed scenarios, leaks and marks (answers to refuse accepted and shown)", code, res.Summary)
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
		}, {
			"GitHub's 404 message, in its own error shape, reaches the agent",
			"pull_request_reviews/several/upstream_status#404",
			leakOf("upstream_status#404 placeholder status", "content[0] text"),
		}, {
			"GitHub's 429 message reaches the agent",
			"pull_request_reviews/several/upstream_status#429",
			leakOf("upstream_status#429 placeholder status", "content[0] text"),
		}, {
			"GitHub's 503 message reaches the agent, after the retries",
			"pull_request_reviews/several/upstream_5xx#503",
			leakOf("upstream_5xx#503 placeholder status", "content[0] text"),
		}})
		checkSafeFindings(t, res)
	})

	t.Run("fixed server passes", func(t *testing.T) {
		res, code := certify(t, toolcert, server, "--fixed")
		checkPassed(t, res, code, minCases)
	})
}

// naiveAtSafe are the operators whose generated cases the naive server
// fails at level safe, each with why that is a real fault, not a style:
// level safe compares each answer with what the server shows for the
// honest one, so a typed decoder's dropping of what it does not declare
// is no failure there (extra members, trailing data, a deep nest under an
// unknown member, another Content-Type fail at level strict only).
var naiveAtSafe = map[string]string{
	"duplicate_member":       "encoding/json keeps the last of two members: the agent sees the repeat",
	"escaped_duplicate":      "the same, with the repeat's name escaped",
	"case_variant_duplicate": "encoding/json matches member names without case: the repeat in another case wins",
	"null_for_object":        "a null review decodes as a zero review, shown to the agent",
	"null_for_array":         "a null list is shown as {\"reviews\": null}",
	"missing_required":       "a missing member decodes as its zero value (id 0, state \"\"), shown as data",
	"empty_object":           "an emptied review is shown as zero values",
	"type_swap":              "null for a member decodes as its zero value, shown",
	"empty_string":           "an empty state or login is shown as it is",
	"enum_outside":           "a state outside GitHub's enum is shown to the agent",
	"pattern_break":          "a login GitHub's pattern refuses is shown",
	"overlong_string":        "a login past its length is shown",
	"nul_truncation":         "a value with a NUL and text after it is shown",
	"bad_format":             "a submitted_at that is no timestamp reaches the agent, quoted in the decode error",
	"below_minimum":          "an id of 0 is shown",
	"escaped_value":          "a timestamp written with a \\u escape is refused: time.Time's decoder does not unescape",
	"invalid_utf8":           "invalid UTF-8 becomes U+FFFD in what the agent is shown",
	"lone_surrogate":         "a lone surrogate becomes U+FFFD in what the agent is shown",
	"over_byte_limit":        "no byte limit: a body past it is read and shown",
	"upstream_5xx":           "the status line's reason phrase reaches the agent",
	"upstream_status":        "the upstream's error message and reason phrase reach the agent",
	"reject":                 "the corpus's rejects that must be refused (a duplicate reviewer, GitHub's error object) are accepted",
}

// checkSafeFindings checks that every generated case the naive server
// fails at level safe is of an operator naiveAtSafe explains, and that
// each such operator fails somewhere: no false failure at level safe, and
// every fault found at it.
func checkSafeFindings(t *testing.T, res *reports.Result) {
	t.Helper()
	seen := map[string]bool{}
	for _, sc := range res.Scenarios {
		for _, c := range sc.Cases {
			if c.StatusAt(reports.LevelSafe) != reports.Failed {
				continue
			}
			seen[c.Operator] = true
			if _, ok := naiveAtSafe[c.Operator]; !ok {
				t.Errorf("case %s fails at level safe, and no real fault of the naive server explains %s: %v", c.ID, c.Operator, c.Evidence)
			}
		}
	}
	for op, why := range naiveAtSafe {
		if !seen[op] {
			t.Errorf("no %s case fails at level safe, yet %s", op, why)
		}
	}
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
	for _, l := range reports.Levels() {
		if ls, ok := s.At(l); !ok || ls.Failed != 0 || ls.CasesFailed != 0 {
			t.Errorf("level %s: %+v: want no failure", l, ls)
		}
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
// whether it failed at both levels.
func failed(res *reports.Result, id string) ([]reports.Evidence, bool) {
	both := func(at func(reports.Level) reports.Status) bool {
		return at(reports.LevelSafe) == reports.Failed && at(reports.LevelStrict) == reports.Failed
	}
	for _, sc := range res.Scenarios {
		if sc.ID == id {
			return sc.Evidence, both(sc.StatusAt)
		}
		for _, c := range sc.Cases {
			if c.ID == id {
				return c.Evidence, both(c.StatusAt)
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
