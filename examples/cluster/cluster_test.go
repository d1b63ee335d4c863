package cluster_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/reports"
)

// minCases is the fewest generated variants the cluster corpus must
// yield; a drop means the corpus or the generator lost coverage.
const minCases = 1300

// TestLint checks the example corpus, routes.json included, as
// `toolcert fixtures lint` does: it is clean.
func TestLint(t *testing.T) {
	c := corpus.New(os.DirFS("fixtures"))
	for _, p := range corpus.Lint(c, time.Now(), corpus.DefaultLimits()) {
		t.Error(p)
	}
	routes, err := c.SideRoutes()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range routes {
		got = append(got, r.Method+" "+r.Path)
	}
	if want := []string{"GET /api", "GET /apis"}; !slices.Equal(got, want) {
		t.Errorf("side routes %q, want %q", got, want)
	}
}

// TestPinned checks that the server pins the corpus's vendor schema and
// declares the contract's data as its output schema, that the features
// run the repository's MCP scenarios unchanged, and that no feature has
// a Background: the side routes alone make the server's discovery work.
func TestPinned(t *testing.T) {
	contract := decode(t, readFile(t, "fixtures/get_pod/contract.json")).(map[string]any)
	data := contract["oneOf"].([]any)[0].(map[string]any)["properties"].(map[string]any)["data"]
	output := decode(t, readFile(t, "server/schemas/get_pod.output.json")).(map[string]any)
	delete(output, "$schema")
	delete(output, "title")
	if diff := cmp.Diff(data, any(output)); diff != "" {
		t.Errorf("the output schema differs from the contract's data (-contract +pinned):\n%s", diff)
	}
	if diff := cmp.Diff(decode(t, readFile(t, "fixtures/get_pod/upstream/v1.schema.json")), decode(t, readFile(t, "server/schemas/pod.vendor.v1.json"))); diff != "" {
		t.Errorf("the pinned vendor schema differs from the corpus's (-corpus +pinned):\n%s", diff)
	}
	if !bytes.Equal(readFile(t, "features/mcp_server.feature"), readFile(t, "../../features/mcp_server.feature")) {
		t.Errorf("features/mcp_server.feature is not a copy of the repository's: copy it again")
	}
	features, err := filepath.Glob("features/*.feature")
	if err != nil || len(features) != 2 {
		t.Fatalf("features: %q, %v; want 2 files", features, err)
	}
	for _, f := range features {
		for i, line := range strings.Split(string(readFile(t, f)), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "Background:") {
				t.Errorf("%s:%d: a Background; the side routes must make the server's discovery work alone", f, i+1)
			}
		}
	}
}

// sideRun is one run of the side-routes certification: the features in
// some order, on some number of lanes.
type sideRun struct {
	name        string
	concurrency int
	// features returns the features folder, in the order the run wants.
	features func(tb testing.TB) string
}

// sideRuns are the orders and lane counts the certification must pass
// in, with the same verdicts. godog runs the feature files of a folder in
// lexical order of their paths and the scenarios of a file in file order;
// a scenario's ID is its file's base name and its name, so the copies
// below, in folders that reverse the files' order and with scenarios and
// example rows reversed, keep every ID. With the files reversed, the
// first call of a server may be a 503 scenario's, held to the attempt
// budget: the discovery requests a side route answers are the client's
// own and are not counted (it was a false failure before they were left
// out).
var sideRuns = []sideRun{
	{name: "file order, 1 lane", concurrency: 1, features: inPlace},
	{name: "file order, 4 lanes", concurrency: 4, features: inPlace},
	{name: "files reversed, 1 lane", concurrency: 1, features: reordered(false)},
	{name: "files reversed, 4 lanes", concurrency: 4, features: reordered(false)},
	{name: "files, scenarios and example rows reversed, 1 lane", concurrency: 1, features: reordered(true)},
}

// TestSideRoutesCertify certifies the server with the corpus's side
// routes in several orders and on one and four lanes: every run passes
// whole, with the same verdict for every scenario and generated case.
func TestSideRoutesCertify(t *testing.T) {
	toolcert, server := binaries(t)
	var first map[string]string
	var firstName string
	for _, r := range sideRuns {
		t.Run(r.name, func(t *testing.T) {
			started := time.Now()
			res, code, out := certify(t, toolcert, server, "--features", r.features(t), "--concurrency", fmt.Sprint(r.concurrency))
			t.Logf("%d scenarios, %d generated cases, %d upstream requests in %v", res.Summary.Scenarios, res.Summary.Cases, res.Summary.UpstreamRequests, time.Since(started).Round(time.Millisecond))
			checkPassed(t, res, code, out)
			got := verdicts(res)
			if first == nil {
				first, firstName = got, r.name
				return
			}
			if diff := cmp.Diff(first, got); diff != "" {
				t.Errorf("verdicts differ from the run %q (-%s +%s):\n%s", firstName, firstName, r.name, diff)
			}
		})
	}
}

// TestWithoutSideRoutes runs the same corpus without routes.json: the
// server's discovery gets the mock's 501 for a route nobody programmed,
// the server keeps that failure, and the run fails, its evidence naming
// the routes the server asked. The side routes are what made it pass.
func TestWithoutSideRoutes(t *testing.T) {
	toolcert, server := binaries(t)
	fixtures := filepath.Join(t.TempDir(), "fixtures")
	if err := os.CopyFS(fixtures, os.DirFS("fixtures")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(fixtures, corpus.SideRoutesFile)); err != nil {
		t.Fatal(err)
	}
	res, code, out := certify(t, toolcert, server, "--fixtures", fixtures, "--concurrency", "1")
	if code != 1 || res.Summary.Failed == 0 || res.Summary.CasesFailed == 0 {
		t.Fatalf("exit %d, summary %+v: want 1, failed scenarios and cases\n%s", code, res.Summary, out)
	}
	const accepted = "cluster.feature: a running pod reaches the agent as its name, namespace and phase"
	if sc, ok := scenario(res, accepted); !ok || sc.Status != reports.Failed {
		t.Errorf("%q did not fail without the side routes", accepted)
	}
	var notes []string
	for _, ev := range evidence(res) {
		if ev.Kind == reports.EvidenceNote && strings.Contains(ev.Message, "routes nobody programmed") {
			notes = append(notes, ev.Message)
		}
	}
	if !slices.ContainsFunc(notes, func(m string) bool { return strings.Contains(m, "GET /api") }) {
		t.Errorf("no evidence notes that the server asked GET /api, which nobody programmed; notes: %q", notes)
	}
}

// checkPassed checks a run that passed whole: exit 0, every scenario
// passed, none skipped or not applicable, no leak, at least minCases
// generated cases and none failed, at both levels.
func checkPassed(t *testing.T, res *reports.Result, code int, out []byte) {
	t.Helper()
	s := res.Summary
	if code != 0 || s.Failed != 0 || s.Skipped != 0 || s.Leaks != 0 || s.Passed != s.Scenarios {
		for _, sc := range res.Scenarios {
			if sc.Status != reports.Passed {
				t.Errorf("%s: %s: %s %+v", sc.ID, sc.Status, sc.Error, sc.Evidence)
			}
		}
		t.Errorf("exit %d, summary %+v: want 0, every scenario passed, no leak\n%s", code, s, out)
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

// verdicts maps every scenario's and generated case's ID to its status
// at each level.
func verdicts(res *reports.Result) map[string]string {
	out := map[string]string{}
	status := func(at func(reports.Level) reports.Status) string {
		var parts []string
		for _, l := range reports.Levels() {
			parts = append(parts, fmt.Sprintf("%s=%s", l, at(l)))
		}
		return strings.Join(parts, " ")
	}
	for _, sc := range res.Scenarios {
		out[sc.ID] = status(sc.StatusAt)
		for _, c := range sc.Cases {
			out[c.ID] = status(c.StatusAt)
		}
	}
	return out
}

// scenario returns the scenario id of res.
func scenario(res *reports.Result, id string) (reports.Scenario, bool) {
	for _, sc := range res.Scenarios {
		if sc.ID == id {
			return sc, true
		}
	}
	return reports.Scenario{}, false
}

// evidence returns every piece of evidence of res: its scenarios' and
// their cases'.
func evidence(res *reports.Result) []reports.Evidence {
	var out []reports.Evidence
	for _, sc := range res.Scenarios {
		out = append(out, sc.Evidence...)
		for _, c := range sc.Cases {
			out = append(out, c.Evidence...)
		}
	}
	return out
}

// inPlace is the example's features folder as it is.
func inPlace(testing.TB) string { return "features" }

// reordered returns a features folder that runs the example's files in
// reverse order: each file in a numbered folder of its own, the last file
// first. With scenarios, the scenarios of each file and the rows of each
// Examples table are reversed too.
func reordered(scenarios bool) func(tb testing.TB) string {
	return func(tb testing.TB) string {
		tb.Helper()
		files, err := filepath.Glob("features/*.feature")
		if err != nil || len(files) == 0 {
			tb.Fatalf("features: %q, %v", files, err)
		}
		slices.Sort(files)
		dir := tb.TempDir()
		for i, f := range slices.Backward(files) {
			text := string(readFile(tb, f))
			if scenarios {
				text = reverseFeature(tb, text)
			}
			sub := filepath.Join(dir, fmt.Sprintf("%d", len(files)-i))
			if err := os.MkdirAll(sub, 0o755); err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(sub, filepath.Base(f)), []byte(text), 0o644); err != nil {
				tb.Fatal(err)
			}
		}
		return dir
	}
}

// reverseFeature returns a feature with its scenarios in reverse order
// and the rows of each Examples table reversed (its header first). It
// handles the features of this example: no Background, no Rule, no tags
// on a scenario.
func reverseFeature(tb testing.TB, text string) string {
	tb.Helper()
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	var head []string
	var blocks [][]string
	for _, line := range lines {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "Background:"), strings.HasPrefix(trimmed, "Rule:"):
			tb.Fatalf("reverseFeature handles no %q", trimmed)
		case strings.HasPrefix(trimmed, "@") && len(blocks) > 0 || strings.HasPrefix(trimmed, "@") && slices.ContainsFunc(head, isFeatureLine):
			tb.Fatalf("reverseFeature handles no tags on a scenario: %q", trimmed)
		case strings.HasPrefix(trimmed, "Scenario:"), strings.HasPrefix(trimmed, "Scenario Outline:"), strings.HasPrefix(trimmed, "Example:"):
			blocks = append(blocks, []string{line})
		case len(blocks) == 0:
			head = append(head, line)
		default:
			blocks[len(blocks)-1] = append(blocks[len(blocks)-1], line)
		}
	}
	out := append([]string(nil), head...)
	for _, b := range slices.Backward(blocks) {
		b = reverseRows(b)
		for len(b) > 0 && strings.TrimSpace(b[len(b)-1]) == "" {
			b = b[:len(b)-1]
		}
		out = append(out, b...)
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}

// isFeatureLine reports whether line is a feature's title line.
func isFeatureLine(line string) bool { return strings.HasPrefix(strings.TrimSpace(line), "Feature:") }

// reverseRows reverses the rows of every Examples table of a scenario
// block, keeping each table's header row first.
func reverseRows(block []string) []string {
	out := append([]string(nil), block...)
	for i := 0; i < len(out); i++ {
		if !strings.HasPrefix(strings.TrimSpace(out[i]), "Examples:") {
			continue
		}
		start := i + 1
		for start < len(out) && strings.TrimSpace(out[start]) == "" {
			start++
		}
		end := start
		for end < len(out) && strings.HasPrefix(strings.TrimSpace(out[end]), "|") {
			end++
		}
		if end-start > 2 {
			slices.Reverse(out[start+1 : end])
		}
		i = end - 1
	}
	return out
}

// The binaries every run uses, built once for the package's tests.
var (
	buildOnce           sync.Once
	buildDir            string
	toolcertBin, srvBin string
	buildErr            error
)

// TestMain removes the binaries' folder when the tests are done.
func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// binaries builds toolcert and the server once and returns their paths.
func binaries(tb testing.TB) (toolcert, server string) {
	tb.Helper()
	buildOnce.Do(func() {
		if buildDir, buildErr = os.MkdirTemp("", "cluster-example-"); buildErr != nil {
			return
		}
		toolcertBin = filepath.Join(buildDir, "toolcert")
		srvBin = filepath.Join(buildDir, "cluster-server")
		for bin, pkg := range map[string]string{toolcertBin: "../../cmd/toolcert", srvBin: "./server"} {
			if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
				buildErr = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
				return
			}
		}
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
	return toolcertBin, srvBin
}

// certify runs `toolcert run --config toolcert.yaml` with the server
// binary as the target and the given flags, and returns the result, the
// exit code and what toolcert printed.
func certify(tb testing.TB, toolcert, server string, flags ...string) (*reports.Result, int, []byte) {
	tb.Helper()
	out := tb.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{"run", "--config", "toolcert.yaml", "--target-mcp-cmd", "'" + server + "'",
		"--seed", "42", "--out", out, "--quiet"}, flags...)
	output, err := exec.CommandContext(ctx, toolcert, args...).CombinedOutput()
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
	return res, code, output
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
