package reports

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// split returns the sample as two shards: its scenarios dealt alternately,
// the run-level counters split.
func split() (*Result, *Result, *Result) {
	whole := sample()
	whole.Summary.UpstreamRequests, whole.Summary.Blocked = 10, 2
	s := Duration(time.Second)
	whole.Summary.CaseTime = &CaseTime{Generate: 3 * s, Baselines: 2 * s, Calls: 30 * s, Checks: 4 * s}
	whole.Coverage = BuildCoverage(whole.Scenarios, []string{"extra_property", "nan"})
	a, b := *whole, *whole
	a.Scenarios, b.Scenarios = nil, nil
	for i, sc := range whole.Scenarios {
		if i%2 == 0 {
			a.Scenarios = append(a.Scenarios, sc)
		} else {
			b.Scenarios = append(b.Scenarios, sc)
		}
	}
	a.Shard, b.Shard = "1/2", "2/2"
	a.Summary, b.Summary = Summary{UpstreamRequests: 6, Blocked: 2}, Summary{UpstreamRequests: 4}
	a.Summary.CaseTime = &CaseTime{Generate: 2 * s, Baselines: s, Calls: 10 * s, Checks: s}
	b.Summary.CaseTime = &CaseTime{Generate: s, Baselines: s, Calls: 20 * s, Checks: 3 * s}
	a.Duration = Duration(time.Second)
	b.StartedAt = whole.StartedAt.Add(time.Second)
	b.Duration = Duration(500 * time.Millisecond)
	a.Coverage = BuildCoverage(a.Scenarios, []string{"extra_property", "nan"})
	b.Coverage = BuildCoverage(b.Scenarios, []string{"extra_property", "nan"})
	a.Tally()
	b.Tally()
	return whole, &a, &b
}

func TestMergeIsTheWholeRun(t *testing.T) {
	whole, a, b := split()
	got, err := Merge(b, a)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(whole.Summary, got.Summary); diff != "" {
		t.Errorf("summary (-whole +merged):\n%s", diff)
	}
	if diff := cmp.Diff(whole.Scenarios, got.Scenarios); diff != "" {
		t.Errorf("scenarios (-whole +merged):\n%s", diff)
	}
	if diff := cmp.Diff(whole.Coverage, got.Coverage); diff != "" {
		t.Errorf("coverage (-whole +merged):\n%s", diff)
	}
	if !got.StartedAt.Equal(whole.StartedAt) || got.Duration != whole.Duration || got.Shard != "" {
		t.Errorf("merged start %v, duration %v, shard %q; want %v, %v, none", got.StartedAt, got.Duration, got.Shard, whole.StartedAt, whole.Duration)
	}
}

func TestMergeRefuses(t *testing.T) {
	_, a, b := split()
	other := *b
	other.Seed++
	strict := *b
	strict.Level = LevelStrict
	tests := map[string][]*Result{
		"nothing":       nil,
		"overlap":       {a, a},
		"another seed":  {a, &other},
		"another level": {a, &strict},
	}
	for name, in := range tests {
		if _, err := Merge(in...); err == nil {
			t.Errorf("%s: Merge accepted it", name)
		}
	}
	if _, err := Merge(a, a); err == nil || !strings.Contains(err.Error(), "overlap") {
		t.Errorf("overlap: err = %v, want it named", err)
	}
	if _, err := Merge(a, &strict); err == nil || !strings.Contains(err.Error(), "level strict, not safe") {
		t.Errorf("another level: err = %v, want the levels named", err)
	}
}

// TestMergeLevels: the merged run certifies the shards' level, keeps each
// scenario's and case's status per level and counts every level; a result
// written before levels certified strict, and merges with one that says
// so.
func TestMergeLevels(t *testing.T) {
	whole, a, b := split()
	got, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Level != LevelSafe || !cmp.Equal(whole.Summary.Levels, got.Summary.Levels) {
		t.Errorf("merged level %q, levels %+v; want safe and the whole run's %+v", got.Level, got.Summary.Levels, whole.Summary.Levels)
	}
	old, strict := *a, *b
	old.Level, strict.Level = "", LevelStrict
	if _, err := Merge(&old, &strict); err != nil {
		t.Errorf("a result written before levels and one of level strict: %v", err)
	}
}

// TestMergeJoinsTheTargetsLevels: the target's scenarios of two shards
// fail at a level when either does.
func TestMergeJoinsTheTargetsLevels(t *testing.T) {
	a := Scenario{ID: "target: x", Feature: TargetFeature, Status: Passed, Levels: map[Level]Status{LevelSafe: Passed, LevelStrict: Passed}}
	b := Scenario{ID: "target: x", Feature: TargetFeature, Status: Passed, Levels: map[Level]Status{LevelSafe: Passed, LevelStrict: Failed}}
	got := joinTarget(a, b, "2/2")
	if diff := cmp.Diff(map[Level]Status{LevelSafe: Passed, LevelStrict: Failed}, got.Levels); diff != "" {
		t.Errorf("joined levels (-want +got):\n%s", diff)
	}
}

func TestMergeBaselineUnmatched(t *testing.T) {
	_, a, b := split()
	a.BaselineUnmatched = []string{"gone", "only-in-b"}
	b.BaselineUnmatched = []string{"gone"}
	got, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"gone"}, got.BaselineUnmatched); diff != "" {
		t.Errorf("unmatched (-want +got): an ID one shard reached is matched:\n%s", diff)
	}
}

// TestMergeJoinsTheTargetsScenarios: every shard reports its own target's
// start failure or finding under one ID; merged, they are one failed
// scenario holding the evidence of both, not an overlap.
func TestMergeJoinsTheTargetsScenarios(t *testing.T) {
	_, a, b := split()
	finding := func(msg string) Scenario {
		return Scenario{ID: ScenarioID(TargetFeature, "the target starts"), Feature: TargetFeature, Name: "the target starts",
			Status: Failed, Error: msg, Evidence: []Evidence{{Kind: EvidenceTarget, Message: msg}}}
	}
	a.Scenarios = append(a.Scenarios, finding("lane 1 exited"))
	b.Scenarios = append(b.Scenarios, finding("lane 2 exited"))
	a.Tally()
	b.Tally()
	got, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	var joined []Scenario
	for _, sc := range got.Scenarios {
		if sc.Feature == TargetFeature {
			joined = append(joined, sc)
		}
	}
	if len(joined) != 1 || joined[0].Status != Failed || len(joined[0].Evidence) != 2 || !strings.Contains(joined[0].Error, "lane 2 exited") {
		t.Errorf("target scenarios %+v, want one failed, with both shards' evidence", joined)
	}
}
