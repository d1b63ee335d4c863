package selftest_test

import (
	"context"
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/toolcert/toolcert/adapters/mutant"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/targets"
)

// The two levels, proven on MCP servers written the way real ones are
// (docs/protocol.md, "Levels"): a style keeps every protection, so level
// safe passes it whatever its way of answering; a real-server fault is
// caught at level safe at its own cases and nowhere else.

// levelFeatures are the features the level self-test runs: every generated
// variant, and what holds for any MCP server.
var levelFeatures = []string{"features/generated_variants.feature", "features/mcp_server.feature"}

// unknownMember are the operators whose variants add a member the closed
// schema does not declare: the only cases a style that reads past unknown
// members (typed) fails, at level strict only.
var unknownMember = []string{
	"extra_property", "extra_property_name", "case_variant_duplicate", "fullwidth_duplicate",
	"success_with_error", "at_depth_limit", "too_deep", "forged_request_id",
}

// unknownMemberRejects are the corpus's rejects that add a member the
// closed schema does not declare.
var unknownMemberRejects = []string{"review_status/duplicate_case/reject"}

// failedCaseIDs returns the IDs of op's cases that failed at level.
func failedCaseIDs(res *reports.Result, level reports.Level, op string) []string {
	var out []string
	for _, sc := range res.Scenarios {
		for _, c := range sc.Cases {
			if c.Operator == op && c.StatusAt(level) == reports.Failed {
				out = append(out, c.ID)
			}
		}
	}
	return out
}

// levelRun runs the level features against tgt, every reference tool
// mapped by m, certifying level.
func levelRun(tb testing.TB, tgt targets.Target, m targets.ToolMap, level reports.Level) *reports.Result {
	tb.Helper()
	tools := map[string]targets.ToolMap{}
	for _, name := range reference.Tools() {
		tools[name] = m
	}
	res, err := runner.Run(context.Background(), runner.Config{FeaturePaths: levelFeatures, Target: tgt, Tools: tools, Level: level})
	if err != nil {
		tb.Fatalf("run against %s at level %s: %v", tgt, level, err)
	}
	return res
}

// failedOperators returns, per operator, how many cases failed at level.
func failedOperators(res *reports.Result, level reports.Level) map[string]int {
	out := map[string]int{}
	for _, sc := range res.Scenarios {
		for _, c := range sc.Cases {
			if c.StatusAt(level) == reports.Failed {
				out[c.Operator]++
			}
		}
	}
	return out
}

// failedScenarios returns the IDs of the scenarios that failed at level.
func failedScenarios(res *reports.Result, level reports.Level) []string {
	var out []string
	for _, sc := range res.Scenarios {
		if sc.StatusAt(level) == reports.Failed {
			out = append(out, sc.ID)
		}
	}
	sort.Strings(out)
	return out
}

// TestStylesAtBothLevels: each style, with the tool map its owner writes,
// passes level safe with no failed case; at level strict only typed fails,
// and only at cases that add an unknown member.
func TestStylesAtBothLevels(t *testing.T) {
	for _, name := range mutant.Styles() {
		t.Run(name, func(t *testing.T) {
			tgt, err := mutant.InProcessStyle(name)
			if err != nil {
				t.Fatal(err)
			}
			res := levelRun(t, tgt, mutant.StyleToolMap(name), reports.LevelSafe)
			if ops := failedOperators(res, reports.LevelSafe); len(ops) > 0 {
				t.Errorf("style %s (%s) fails cases at level safe: %v", name, mutant.DescribeStyle(name), ops)
			}
			if scs := failedScenarios(res, reports.LevelSafe); len(scs) > 0 {
				t.Errorf("style %s fails scenarios at level safe: %v", name, scs)
			}
			strict := failedOperators(res, reports.LevelStrict)
			for op := range strict {
				if name != "typed" || !slices.Contains(unknownMember, op) && op != "reject" {
					t.Errorf("style %s fails %d %s cases at level strict: want none but unknown members' for typed", name, strict[op], op)
				}
			}
			if name == "typed" && len(strict) == 0 {
				t.Error("style typed passes level strict: it reads past unknown members, which protocol v1 refuses")
			}
			for _, id := range failedCaseIDs(res, reports.LevelStrict, "reject") {
				if !slices.Contains(unknownMemberRejects, id) {
					t.Errorf("style %s fails the reject %s at level strict", name, id)
				}
			}
			t.Logf("level strict: %v", strict)
		})
	}
}

// realFaults are mutants written the way real MCP servers fail, each with
// the operators whose cases level safe must fail them at, and no other:
// every failure is real, and the server's own baseline keeps the rest
// quiet.
var realFaults = map[string][]string{
	"duplicate-last-wins":      {"duplicate_member", "escaped_duplicate", "reject"},
	"case-insensitive-members": {"case_variant_duplicate", "reject"},
	"crash-on-null":            {"null_for_object", "null_for_array"},
}

// TestRealFaultsAtLevelSafe: served over MCP, each real-server fault is
// caught at level safe at its own cases only. The crash takes its process
// down on a null answer: that case fails, the lane starts the server
// again, and every other case passes on the new process.
func TestRealFaultsAtLevelSafe(t *testing.T) {
	for _, name := range slices.Sorted(maps.Keys(realFaults)) {
		t.Run(name, func(t *testing.T) {
			var tgt targets.Target
			if mutant.Crashes(name) {
				var err error
				if tgt, err = targets.NewMCPStdio([]string{mutantBinary(t), "--mcp", "stdio", "--mutant", name}); err != nil {
					t.Fatal(err)
				}
			} else {
				tgt = mcpMutant(t, name)
			}
			res := levelRun(t, tgt, targets.ToolMap{}, reports.LevelSafe)
			ops := failedOperators(res, reports.LevelSafe)
			if len(ops) == 0 {
				t.Fatalf("mutant %s (%s) passes level safe", name, mutant.Describe(name))
			}
			for op, n := range ops {
				if !slices.Contains(realFaults[name], op) {
					t.Errorf("mutant %s fails %d %s cases at level safe: not its fault's", name, n, op)
				}
			}
			for _, sc := range res.Scenarios {
				if sc.Feature == "mcp_server.feature" && sc.StatusAt(reports.LevelSafe) == reports.Failed {
					t.Errorf("mutant %s fails %s at level safe", name, sc.ID)
				}
			}
			if mutant.Crashes(name) && res.Summary.TargetRestarts == 0 {
				t.Errorf("mutant %s crashed and no target was started again", name)
			}
			t.Logf("level safe: %v; restarts %d", ops, res.Summary.TargetRestarts)
		})
	}
}

// passesAtBothLevels fails tb unless every scenario of res passed (or does
// not apply, or is strict only at level safe) and every case passed, at
// both levels, with no leak and no mark.
func passesAtBothLevels(tb testing.TB, res *reports.Result) {
	tb.Helper()
	for _, l := range reports.Levels() {
		for _, sc := range res.Scenarios {
			switch sc.StatusAt(l) {
			case reports.Passed, reports.NotApplicable:
			case reports.StrictOnly:
				if l != reports.LevelSafe {
					tb.Errorf("%s is strict only at level %s", sc.ID, l)
				}
			default:
				tb.Errorf("level %s: %s %s: %s", l, sc.ID, sc.StatusAt(l), sc.Error)
			}
			for _, c := range sc.Cases {
				if c.StatusAt(l) != reports.Passed {
					tb.Errorf("level %s: case %s %s: %v", l, c.ID, c.StatusAt(l), c.Evidence)
				}
			}
		}
	}
	if res.Summary.Leaks+res.Summary.Marks != 0 {
		tb.Errorf("%d leaks and %d marks, want none", res.Summary.Leaks, res.Summary.Marks)
	}
}

var (
	toolcertOnce sync.Once
	toolcertBin  string
	toolcertErr  error
)

// toolcertBinary builds cmd/toolcert once per test binary, into the
// folder mutantBinary makes.
func toolcertBinary(t testing.TB) string {
	dir := filepath.Dir(mutantBinary(t))
	toolcertOnce.Do(func() {
		toolcertBin = filepath.Join(dir, "toolcert")
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, "go", "build", "-o", toolcertBin, "../cmd/toolcert").CombinedOutput()
		if err != nil {
			toolcertErr = fmt.Errorf("%w: %s", err, out)
		}
	})
	if toolcertErr != nil {
		t.Fatalf("build toolcert: %v", toolcertErr)
	}
	return toolcertBin
}

// TestReferenceOverMCPTransportsAtBothLevels: the reference served by
// `toolcert adapter --mcp` over stdio and over streamable HTTP, one
// process per lane, passes every generated variant and the MCP scenarios
// at both levels.
func TestReferenceOverMCPTransportsAtBothLevels(t *testing.T) {
	bin := toolcertBinary(t)
	for _, spec := range []targets.Spec{
		{Kind: targets.KindMCPStdio, Argv: []string{bin, "adapter", "--mcp", "stdio"}},
		{Kind: targets.KindMCPHTTP, Argv: []string{bin, "adapter", "--mcp", "http"}},
	} {
		t.Run(spec.Kind, func(t *testing.T) {
			tgt, err := spec.Build()
			if err != nil {
				t.Fatal(err)
			}
			passesAtBothLevels(t, levelRun(t, tgt, targets.ToolMap{}, reports.LevelSafe))
		})
	}
}

// strictRuleMutants break only rules of protocol v1 beyond level safe
// (the audit's record, the exact code of a failure, a retry policy), each
// with the feature that catches it at level strict: certified at level
// safe they fail no scenario there, and the same run still fails them at
// level strict.
var strictRuleMutants = map[string]string{
	"audit-one-reason":         "features/semantic_binding.feature",
	"audit-counts-one-attempt": "features/transport.feature",
	"codes-collapsed":          "features/transport.feature",
	"no-retry":                 "features/transport.feature",
	"retries-client-errors":    "features/transport.feature",
	"retryable-inverted":       "features/transport.feature",
}

// TestStrictRulesPassAtLevelSafe: a step that checks a rule of level
// strict only passes in a run that certifies safe, and keeps its failure
// for the scenario's status at level strict.
func TestStrictRulesPassAtLevelSafe(t *testing.T) {
	for _, name := range slices.Sorted(maps.Keys(strictRuleMutants)) {
		t.Run(name, func(t *testing.T) {
			tgt, err := mutant.InProcess(name)
			if err != nil {
				t.Fatal(err)
			}
			res, err := runner.Run(context.Background(), runner.Config{FeaturePaths: []string{strictRuleMutants[name]}, Target: tgt, Level: reports.LevelSafe})
			if err != nil {
				t.Fatal(err)
			}
			if scs := failedScenarios(res, reports.LevelSafe); len(scs) > 0 {
				t.Errorf("mutant %s (%s) fails at level safe: %v", name, mutant.Describe(name), scs)
			}
			if len(failedScenarios(res, reports.LevelStrict)) == 0 {
				t.Errorf("mutant %s passes level strict in a run that certifies safe", name)
			}
		})
	}
}
