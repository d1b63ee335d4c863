package runner

import (
	"context"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/cucumber/godog"

	"github.com/toolcert/toolcert/reports"
)

// Shard picks the part of a run one job of a CI matrix runs: shard Index of
// Count (1-based), by a stable hash of each scenario's ID ("feature: name").
// The zero Shard runs everything. Every scenario falls in exactly one shard
// of a given Count, whatever the machine, the seed or the run order, so the
// shards' results.json files merge into the whole run (`toolcert merge`).
type Shard struct {
	Index, Count int
}

// ParseShard reads "K/N" (1 <= K <= N).
func ParseShard(s string) (Shard, error) {
	k, n, ok := strings.Cut(s, "/")
	index, err1 := strconv.Atoi(strings.TrimSpace(k))
	count, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil || count < 1 || index < 1 || index > count {
		return Shard{}, fmt.Errorf("%w: shard %q: want K/N with 1 <= K <= N, e.g. 2/4", ErrConfig, s)
	}
	return Shard{Index: index, Count: count}, nil
}

// String returns "K/N", or "" for the zero Shard.
func (s Shard) String() string {
	if s.Count == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Has reports whether the scenario with id belongs to the shard.
func (s Shard) Has(id string) bool {
	if s.Count <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	return int(h.Sum64()%uint64(s.Count)) == s.Index-1
}

// outOfShardKey marks, in a scenario's context, a scenario another shard
// runs: the recorder leaves it out of the result.
type outOfShardKey struct{}

// shardHook skips every scenario of another shard before any other hook
// can act on it. It must be registered first.
func shardHook(sc *godog.ScenarioContext, s Shard) {
	sc.Before(func(ctx context.Context, p *godog.Scenario) (context.Context, error) {
		if s.Has(scenarioID(p)) {
			return ctx, nil
		}
		return context.WithValue(ctx, outOfShardKey{}, true), fmt.Errorf("%w: in another shard than %s", godog.ErrSkip, s)
	})
}

// outOfShard reports whether ctx belongs to a scenario of another shard.
func outOfShard(ctx context.Context) bool {
	v, _ := ctx.Value(outOfShardKey{}).(bool)
	return v
}

// scenarioID is the ID results.json gives a scenario (reports.ScenarioID):
// the same whether the features are the built-in ones, a folder or one
// file, so a baseline stays valid.
func scenarioID(p *godog.Scenario) string { return reports.ScenarioID(p.Uri, p.Name) }
