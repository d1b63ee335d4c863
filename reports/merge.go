package reports

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// Merge joins the results of the shards of one run (each a run with the
// same seed, target, version and level, and its own shard) into the result
// of the whole run: the scenarios of all, in ID order (each with its status
// at every level), the counters summed, the coverage matrix rebuilt over
// every case, the start the earliest and the end the latest. A scenario ID that two shards both report is an error:
// the shards overlap, but for the scenarios of TargetFeature, which every
// shard has of its own target: those of one ID are joined into one, their
// evidence kept. Interrupted is set when any shard was.
func Merge(shards ...*Result) (*Result, error) {
	if len(shards) == 0 {
		return nil, errors.New("merge: no result to merge")
	}
	first := shards[0]
	out := &Result{Tool: first.Tool, Version: first.Version, Seed: first.Seed, Target: first.Target, StartedAt: first.StartedAt,
		Level: first.Level}
	seen := map[string]string{}
	var end time.Time
	var unmatched map[string]int
	for i, r := range shards {
		if err := sameRun(first, r); err != nil {
			return nil, fmt.Errorf("merge: result %d: %w", i+1, err)
		}
		for _, sc := range r.Scenarios {
			if i := slices.IndexFunc(out.Scenarios, func(o Scenario) bool { return o.ID == sc.ID }); i >= 0 && sc.Feature == TargetFeature {
				out.Scenarios[i] = joinTarget(out.Scenarios[i], sc, r.Shard)
				continue
			}
			if other, dup := seen[sc.ID]; dup {
				return nil, fmt.Errorf("merge: scenario %q is in shard %s and shard %s: the shards overlap", sc.ID, other, r.Shard)
			}
			seen[sc.ID] = r.Shard
			out.Scenarios = append(out.Scenarios, sc)
		}
		out.addCounters(r)
		if r.StartedAt.Before(out.StartedAt) {
			out.StartedAt = r.StartedAt
		}
		if e := r.StartedAt.Add(time.Duration(r.Duration)); e.After(end) {
			end = e
		}
		unmatched = countUnmatched(unmatched, r.BaselineUnmatched)
	}
	sort.SliceStable(out.Scenarios, func(i, j int) bool { return out.Scenarios[i].ID < out.Scenarios[j].ID })
	out.Duration = Duration(end.Sub(out.StartedAt))
	out.Coverage = BuildCoverage(out.Scenarios, coverageOperators(shards))
	out.BaselineUnmatched = unmatchedByAll(unmatched, len(shards))
	out.Tally()
	out.Controls = CatalogueOf(allControls(shards)).Evaluate(out)
	return out, nil
}

// sameRun refuses a shard of another run. A result written before levels
// certified level strict.
func sameRun(a, b *Result) error {
	switch {
	case a.CertifiedLevel() != b.CertifiedLevel():
		return fmt.Errorf("level %s, not %s: another run", b.CertifiedLevel(), a.CertifiedLevel())
	case a.Seed != b.Seed:
		return fmt.Errorf("seed %d, not %d: another run", b.Seed, a.Seed)
	case a.Target != b.Target:
		return fmt.Errorf("target %q, not %q: another run", b.Target, a.Target)
	case a.Version != b.Version:
		return fmt.Errorf("toolcert %s, not %s: another run", b.Version, a.Version)
	}
	return nil
}

// addCounters adds the counters Tally cannot recompute from scenarios.
func (r *Result) addCounters(shard *Result) {
	s, t := &r.Summary, shard.Summary
	s.UpstreamRequests += t.UpstreamRequests
	s.Blocked += t.Blocked
	s.BlockedRequests += t.BlockedRequests
	s.TargetRestarts += t.TargetRestarts
	if t.CaseTime != nil {
		if s.CaseTime == nil {
			s.CaseTime = &CaseTime{}
		}
		s.CaseTime.add(*t.CaseTime)
	}
	s.Interrupted = s.Interrupted || t.Interrupted
}

// coverageOperators returns every operator the shards' matrices name.
func coverageOperators(shards []*Result) []string {
	var ops []string
	for _, r := range shards {
		for _, c := range r.Coverage {
			if !slices.Contains(ops, c.Operator) {
				ops = append(ops, c.Operator)
			}
		}
	}
	slices.Sort(ops)
	return ops
}

// countUnmatched counts, per baseline ID, the shards that did not reach it.
func countUnmatched(m map[string]int, ids []string) map[string]int {
	if m == nil {
		m = map[string]int{}
	}
	for _, id := range ids {
		m[id]++
	}
	return m
}

// unmatchedByAll returns the IDs no shard reached, sorted.
func unmatchedByAll(m map[string]int, shards int) []string {
	var out []string
	for id, n := range m {
		if n == shards {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// TargetFeature is the feature of the scenarios a run adds about its
// target itself rather than a feature file's: that it started, where it
// listened, what it left running (docs/reports.md).
const TargetFeature = "target"

// joinTarget joins b, the scenario of shard's own target, into a, of the
// same ID from an earlier shard: failed (at a level) when either failed,
// the errors one after the other, all evidence kept.
func joinTarget(a, b Scenario, shard string) Scenario {
	if b.Status == Failed {
		a.Status = Failed
	}
	if len(a.Levels)+len(b.Levels) > 0 {
		levels := make(map[Level]Status, len(Levels()))
		for _, l := range Levels() {
			levels[l] = a.StatusAt(l)
			if b.StatusAt(l) == Failed {
				levels[l] = Failed
			}
		}
		a.Levels = levels
	}
	if b.Error != "" {
		a.Error = strings.TrimPrefix(a.Error+"\nshard "+shard+": "+b.Error, "\n")
	}
	a.Evidence = append(a.Evidence, b.Evidence...)
	a.Duration = max(a.Duration, b.Duration)
	return a
}
