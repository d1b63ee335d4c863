package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/targets"
)

func TestParseShard(t *testing.T) {
	good := map[string]Shard{"1/1": {1, 1}, "2/4": {2, 4}, " 3 / 3 ": {3, 3}}
	for in, want := range good {
		got, err := ParseShard(in)
		if err != nil || got != want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1", "0/2", "3/2", "-1/2", "1/0", "a/b", "1/2/3"} {
		if _, err := ParseShard(in); !errors.Is(err, ErrConfig) {
			t.Errorf("ParseShard(%q) err = %v, want ErrConfig", in, err)
		}
	}
}

// TestShardsPartition: for any count, every ID falls in exactly one shard.
func TestShardsPartition(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7} {
		for i := range 500 {
			id := fmt.Sprintf("features/f%d.feature: scenario %d", i%13, i)
			in := 0
			for k := 1; k <= n; k++ {
				if (Shard{k, n}).Has(id) {
					in++
				}
			}
			if in != 1 {
				t.Fatalf("%q is in %d of %d shards, want exactly 1", id, in, n)
			}
		}
	}
}

// TestShardedRunsCoverTheWholeRun: the shards of a run report disjoint
// scenarios whose union is the whole run's.
func TestShardedRunsCoverTheWholeRun(t *testing.T) {
	run := func(s Shard) []string {
		res, err := Run(context.Background(), Config{
			Features: toolcert.Features(), FeaturePaths: []string{"features"}, Tags: "@transport && ~@slow",
			Fixtures: toolcert.Fixtures(), Target: reference.InProcess(), Profile: targets.DefaultProfile(),
			Concurrency: 2, Shard: s,
		})
		if err != nil && !errors.Is(err, ErrNothingRan) {
			t.Fatalf("shard %v: %v", s, err)
		}
		var ids []string
		for _, sc := range res.Scenarios {
			ids = append(ids, sc.ID)
		}
		if res.Shard != s.String() {
			t.Errorf("result's shard %q, want %q", res.Shard, s)
		}
		return ids
	}
	whole := run(Shard{})
	var union []string
	for k := 1; k <= 3; k++ {
		for _, id := range run(Shard{k, 3}) {
			if slices.Contains(union, id) {
				t.Errorf("%q ran in two shards", id)
			}
			union = append(union, id)
		}
	}
	slices.Sort(union)
	slices.Sort(whole)
	if !slices.Equal(union, whole) {
		t.Errorf("the shards ran %v, the whole run %v", union, whole)
	}
}
