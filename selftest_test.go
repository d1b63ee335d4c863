package toolcert_test

import (
	"context"
	"encoding/json"
	"os"
	"sort"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/adapters/mutant"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/target"
)

// builtinRun runs the built-in features (those tags selects, "" for all)
// against tgt with two lanes.
func builtinRun(tb testing.TB, tgt target.Target, tags string) *reports.Result {
	tb.Helper()
	return featuresRun(tb, tgt, tags, "features")
}

// featuresRun runs the built-in features at paths against tgt.
func featuresRun(tb testing.TB, tgt target.Target, tags string, paths ...string) *reports.Result {
	tb.Helper()
	res, err := runner.Run(context.Background(), runner.Config{
		Features: toolcert.Features(), FeaturePaths: paths,
		Fixtures: toolcert.Fixtures(), Target: tgt, Profile: target.DefaultProfile(),
		Concurrency: 2, Tags: tags,
	})
	if err != nil {
		tb.Fatalf("run against %s: %v", tgt, err)
	}
	return res
}

// TestReferencePassesEverything is the harness's baseline: the reference
// adapter passes every built-in scenario, with no skip and no leak.
// TOOLCERT_STABILITY_RUNS repeats the whole run (20 for the release check).
func TestReferencePassesEverything(t *testing.T) {
	runs := 1
	if n, err := strconv.Atoi(os.Getenv("TOOLCERT_STABILITY_RUNS")); err == nil && n > 0 {
		runs = n
	}
	for i := range runs {
		res := builtinRun(t, reference.InProcess(), "")
		for _, sc := range res.Scenarios {
			if sc.Status != reports.Passed {
				t.Errorf("run %d: %s: %q %s:\n%s", i+1, sc.Feature, sc.Name, sc.Status, sc.Error)
			}
		}
		if res.Summary.Scenarios < 60 || res.Summary.Leaks != 0 {
			t.Errorf("run %d: summary %+v, want at least 60 scenarios and no leak", i+1, res.Summary)
		}
	}
}

// catches names, for each mutant, the features that must catch it: each of
// them must have at least one failing scenario when run against the mutant.
var catches = map[string][]string{
	"approval-reusable":             {"features/calls_approvals.feature"},
	"arguments-not-rebound":         {"features/calls_approvals.feature"},
	"ask-executes":                  {"features/calls_approvals.feature"},
	"case-insensitive-tool":         {"features/calls_authorization.feature"},
	"grant-not-checked":             {"features/calls_authorization.feature", "features/calls_approvals.feature"},
	"model-account-trusted":         {"features/calls_refund.feature"},
	"no-allowlist":                  {"features/calls_authorization.feature"},
	"partial-stream-acted-on":       {"features/calls_refund.feature"},
	"additional-properties-ignored": {"features/first_test.feature", "features/closed_objects.feature"},
	"duplicate-last-wins":           {"features/duplicate_members.feature"},
	"freshness-unchecked":           {"features/semantic_binding.feature"},
	"no-byte-limit":                 {"features/parse_limits.feature"},
	"unbounded-retries":             {"features/transport.feature"},
	"upstream-message-forwarded":    {"features/projection.feature"},
	"upstream-request-id-echoed":    {"features/envelope.feature", "features/projection.feature"},
	"validator-text-in-error":       {"features/closed_objects.feature", "features/first_test.feature"},
}

// TestMutantsAreCaught proves the harness can fail: every mutant, the
// reference with exactly one protection removed, fails the built-in run,
// and fails it in the features that test that protection.
func TestMutantsAreCaught(t *testing.T) {
	names := mutant.Names()
	if diff := cmp.Diff(sortedKeys(catches), names); diff != "" {
		t.Fatalf("every mutant needs an entry in catches (-catches +mutants):\n%s", diff)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			tgt, err := mutant.InProcess(name)
			if err != nil {
				t.Fatal(err)
			}
			res := builtinRun(t, tgt, "")
			failed := map[string][]string{}
			for _, sc := range res.Scenarios {
				if sc.Status != reports.Passed {
					failed[sc.Feature] = append(failed[sc.Feature], sc.Name)
				}
			}
			if len(failed) == 0 {
				t.Fatalf("mutant %s (%s) passed every scenario: the harness cannot see it", name, mutant.Describe(name))
			}
			for _, f := range catches[name] {
				if len(failed[f]) == 0 {
					t.Errorf("mutant %s: no scenario of %s failed; failing features: %v", name, f, sortedKeys(failed))
				}
			}
			for f, scs := range failed {
				t.Logf("caught by %s: %q", f, scs)
			}
		})
	}
}

// coreMutants are the mutants of the result side (issue 2's list): the
// generated variants, which serve hostile answers, must catch each alone.
// The call-side mutants need calls, which variants do not make.
var coreMutants = []string{
	"additional-properties-ignored", "duplicate-last-wins", "freshness-unchecked", "no-byte-limit",
	"unbounded-retries", "upstream-message-forwarded", "upstream-request-id-echoed", "validator-text-in-error",
}

// TestMutantsCaughtByVariantsAlone: the generated variants, with no
// hand-written scenario, catch every core mutant.
func TestMutantsCaughtByVariantsAlone(t *testing.T) {
	for _, name := range coreMutants {
		t.Run(name, func(t *testing.T) {
			tgt, err := mutant.InProcess(name)
			if err != nil {
				t.Fatal(err)
			}
			res := featuresRun(t, tgt, "", "features/generated_variants.feature")
			if res.Summary.CasesFailed == 0 {
				t.Fatalf("mutant %s (%s): all %d generated cases passed", name, mutant.Describe(name), res.Summary.Cases)
			}
			ops := map[string]int{}
			for _, sc := range res.Scenarios {
				for _, c := range sc.Cases {
					if c.Status != reports.Passed {
						ops[c.Operator]++
					}
				}
			}
			t.Logf("mutant %s: %d of %d cases failed, by operator %v", name, res.Summary.CasesFailed, res.Summary.Cases, ops)
		})
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
