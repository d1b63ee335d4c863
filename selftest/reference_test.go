package selftest_test

import (
	"context"
	"encoding/json"
	"os"
	"sort"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/targets"
)

// builtinRun runs the built-in features (those tags selects, "" for all)
// against tgt, with runner's defaults.
func builtinRun(tb testing.TB, tgt targets.Target, tags string) *reports.Result {
	tb.Helper()
	return featuresRun(tb, tgt, tags, "features")
}

// featuresRun runs the built-in features at paths against tgt, with
// runner's defaults.
func featuresRun(tb testing.TB, tgt targets.Target, tags string, paths ...string) *reports.Result {
	tb.Helper()
	res, err := runner.Run(context.Background(), runner.Config{FeaturePaths: paths, Target: tgt, Tags: tags})
	if err != nil {
		tb.Fatalf("run against %s: %v", tgt, err)
	}
	return res
}

// runWith runs the built-in features against tgt with tool maps and
// capabilities, for targets that do not speak protocol v1.
func runWith(tb testing.TB, tgt targets.Target, maps map[string]targets.ToolMap, caps *targets.Capabilities) *reports.Result {
	tb.Helper()
	res, err := runner.Run(context.Background(), runner.Config{Target: tgt, Tools: maps, Capabilities: caps})
	if err != nil {
		tb.Fatalf("run against %s: %v", tgt, err)
	}
	return res
}

// TestReferencePassesEverything is the harness's baseline: the reference
// adapter passes every built-in scenario, with no skip and no leak; only
// the MCP servers' own scenarios do not apply to it.
// TOOLCERT_STABILITY_RUNS repeats the whole run (20 for the release check).
func TestReferencePassesEverything(t *testing.T) {
	runs := 1
	if n, err := strconv.Atoi(os.Getenv("TOOLCERT_STABILITY_RUNS")); err == nil && n > 0 {
		runs = n
	}
	for i := range runs {
		res := builtinRun(t, reference.InProcess(), "")
		for _, sc := range res.Scenarios {
			mcpOnly := sc.Status == reports.NotApplicable && sc.Feature == mcpOnlyFeature
			if sc.Status != reports.Passed && !mcpOnly {
				t.Errorf("run %d: %s: %q %s:\n%s", i+1, sc.Feature, sc.Name, sc.Status, sc.Error)
			}
		}
		if res.Summary.Scenarios < 60 || res.Summary.Leaks != 0 {
			t.Errorf("run %d: summary %+v, want at least 60 scenarios and no leak", i+1, res.Summary)
		}
		passesAtBothLevels(t, res)
	}
}

// TestVariantsCoverEveryCase: a run of the generated variants reports at
// least 1,000 cases, each with a reproducer, and a coverage matrix.
func TestVariantsCoverEveryCase(t *testing.T) {
	res := featuresRun(t, reference.InProcess(), "", "features/generated_variants.feature")
	if res.Summary.Cases < 1000 || res.Summary.CasesFailed != 0 {
		t.Errorf("summary %+v: want at least 1,000 cases, all passed", res.Summary)
	}
	exercised := 0
	for _, c := range res.Coverage {
		if c.Status == reports.CellPassed {
			exercised++
		}
	}
	if exercised == 0 {
		t.Error("the coverage matrix has no exercised cell")
	}
	for _, sc := range res.Scenarios {
		for _, c := range sc.Cases {
			if c.Reproducer == "" {
				t.Fatalf("case %s has no reproducer", c.ID)
			}
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// notInCorpus names the reference tools the built-in corpus leaves out on
// purpose, and why.
var notInCorpus = map[string]string{
	"purge_cache": "the built-in policy does not allowlist it: to the harness it is an unknown tool (generic envelope)",
}

// TestReferencePinsTheCorpus keeps the reference adapter's pinned schemas
// and the built-in corpus the same documents: the corpus describes what
// the reference enforces.
func TestReferencePinsTheCorpus(t *testing.T) {
	c := corpus.New(toolcert.Fixtures())
	for _, tool := range reference.Tools() {
		if why, ok := notInCorpus[tool]; ok {
			if _, err := c.Contract(tool); err == nil {
				t.Errorf("%s is in the corpus, but notInCorpus says: %s", tool, why)
			}
			continue
		}
		pairs := []struct{ kind, file string }{{"contract", tool + "/contract.json"}}
		for _, v := range reference.Versions(tool) {
			if _, err := c.Fixture(tool + "/upstream/" + v + ".schema.json"); err == nil {
				pairs = append(pairs, struct{ kind, file string }{"vendor." + v, tool + "/upstream/" + v + ".schema.json"})
			}
		}
		for _, pair := range pairs {
			pinned, err := reference.Schema(tool, pair.kind)
			if err != nil {
				t.Fatal(err)
			}
			inCorpus, err := c.Fixture(pair.file)
			if err != nil {
				t.Fatal(err)
			}
			var a, b any
			if err := json.Unmarshal(pinned, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(inCorpus, &b); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(a, b); diff != "" {
				t.Errorf("%s: the reference's %s schema differs from the corpus (-reference +corpus):\n%s", pair.file, pair.kind, diff)
			}
		}
	}
}
