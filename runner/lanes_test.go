package runner

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/targets"
)

// scenarios returns a feature of n scenarios, each tagged @sN (from 1)
// and @all, each the steps of oneScenario.
func scenarios(n int) string {
	_, body, _ := strings.Cut(oneScenario, "\n  Scenario: an extra property is rejected\n")
	var b strings.Builder
	b.WriteString("Feature: many\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "  @s%d @all\n  Scenario: scenario %d\n%s", i, i, body)
	}
	return b.String()
}

// variantScenario is a scenario of generated variants.
const variantScenario = `Feature: variants
  Scenario: every variant of review_status
    Then every generated variant of "review_status" is handled as expected without leaking
`

func TestLanesNeverMoreThanTheScenariosCanUse(t *testing.T) {
	four := fstest.MapFS{"many.feature": {Data: []byte(scenarios(4))}}
	withVariants := fstest.MapFS{"many.feature": {Data: []byte(scenarios(4))}, "variants.feature": {Data: []byte(variantScenario)}}
	tests := []struct {
		name   string
		reason string
		cfg    Config
		want   int
	}{
		{"fewer scenarios than lanes", "4 scenarios use 4 of 8 lanes",
			Config{Features: four, Concurrency: 8}, 4},
		{"more scenarios than lanes", "the concurrency bounds the lanes",
			Config{Features: four, Concurrency: 2}, 2},
		{"tags", "only the scenario the tags select counts",
			Config{Features: four, Concurrency: 8, Tags: "@s2"}, 1},
		{"tags with or and not", "godog's tag expressions select three",
			Config{Features: four, Concurrency: 8, Tags: "@s1,@all && ~@s4"}, 3},
		{"nothing selected", "one lane still starts, for the run to say that nothing ran",
			Config{Features: four, Concurrency: 8, Tags: "@none"}, 1},
		{"a path", "only the scenarios of the paths count",
			Config{Features: withVariants, FeaturePaths: []string{"many.feature"}, Concurrency: 8}, 4},
		{"generated variants", "a scenario of generated variants borrows every free lane: all start",
			Config{Features: withVariants, Concurrency: 8}, 8},
		{"generated variants left out by the tags", "the variants' scenario is not selected",
			Config{Features: withVariants, Concurrency: 8, Tags: "@all"}, 4},
		{"the built-in features", "they run generated variants",
			Config{Concurrency: 6}, 6},
		{"one generated case", "one case borrows no lane",
			Config{Case: "review_status/approved#x", Features: caseFeature("review_status/approved#x"), FeaturePaths: []string{"."}, Concurrency: 8}, 1},
		{"a running target", "one lane, whatever the concurrency",
			Config{Features: four, Concurrency: 8, UpstreamListen: "127.0.0.1:0"}, 1},
		{"a shard", "only the scenarios of the shard count",
			Config{Features: four, Concurrency: 8, Shard: Shard{Index: 1, Count: 2}}, shardCount(t, 4, Shard{Index: 1, Count: 2})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.withDefaults()
			if got := tt.cfg.lanes(); got != tt.want {
				t.Errorf("lanes() = %d, want %d: %s", got, tt.want, tt.reason)
			}
		})
	}
}

// shardCount returns how many of the scenarios of scenarios(n) fall in s.
func shardCount(tb testing.TB, n int, s Shard) int {
	tb.Helper()
	count := 0
	for i := 1; i <= n; i++ {
		if s.Has(fmt.Sprintf("many.feature: scenario %d", i)) {
			count++
		}
	}
	if count == 0 || count == n {
		tb.Fatalf("shard %s holds %d of %d scenarios: the test shows nothing", s, count, n)
	}
	return count
}

// countingTarget counts its starts.
type countingTarget struct {
	targets.Target
	starts *atomic.Int64
}

func (c countingTarget) Start(ctx context.Context, env targets.Env) (targets.Instance, error) {
	c.starts.Add(1)
	return c.Target.Start(ctx, env)
}

// TestRunStartsNoIdleLane: a run of 4 scenarios at --concurrency 8
// starts 4 targets, not 8.
func TestRunStartsNoIdleLane(t *testing.T) {
	var starts atomic.Int64
	tgt := countingTarget{reference.InProcess(), &starts}
	res, err := Run(context.Background(), Config{
		Features: fstest.MapFS{"many.feature": {Data: []byte(scenarios(4))}}, Target: tgt, Concurrency: 8,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.Scenarios != 4 || res.Summary.Passed != 4 {
		t.Fatalf("summary %+v, want 4 scenarios passed", res.Summary)
	}
	if n := starts.Load(); n != 4 {
		t.Errorf("%d targets started for 4 scenarios at concurrency 8, want 4", n)
	}
}
