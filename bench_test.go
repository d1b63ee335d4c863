package toolcert_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/mocks"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/steps"
	"github.com/toolcert/toolcert/target"
)

// benchSets are the scenario selections the benchmarks measure: all of
// them, and all but the two that wait out the adapter's time budget (their
// wall clock is the budget, whoever runs them).
var benchSets = []struct{ name, tags string }{{"all", ""}, {"no-slow", "~@slow"}}

// BenchmarkBuiltinRun measures one built-in run (two lanes) against the
// reference adapter, in-process.
func BenchmarkBuiltinRun(b *testing.B) {
	for _, set := range benchSets {
		b.Run(set.name, func(b *testing.B) {
			for b.Loop() {
				res := builtinRun(b, reference.InProcess(), set.tags)
				if res.Summary.Failed != 0 {
					b.Fatalf("reference failed %d scenarios", res.Summary.Failed)
				}
			}
		})
	}
}

// BenchmarkReplayFloor is the floor under BenchmarkBuiltinRun: the same
// upstream answers and the same agent calls on two lanes, with no godog,
// no assertion, no leak scan and no audit read.
func BenchmarkReplayFloor(b *testing.B) {
	for _, set := range benchSets {
		b.Run(set.name, func(b *testing.B) { replayFloor(b, set.tags) })
	}
}

func replayFloor(b *testing.B, tags string) {
	exchanges := recordExchanges(b, tags)
	lanes := []*floorLane{newFloorLane(b), newFloorLane(b)}
	client := target.NewClient(target.WithTimeout(target.DefaultProfile().CallTimeout()))
	for b.Loop() {
		var wg sync.WaitGroup
		next := make(chan *steps.Exchange)
		for _, l := range lanes {
			wg.Go(func() {
				for x := range next {
					l.send(b, client, x)
				}
			})
		}
		for _, x := range exchanges {
			next <- x
		}
		close(next)
		wg.Wait()
	}
}

// recordExchanges runs the built-in features once and keeps each
// scenario's programmed answers and agent call.
func recordExchanges(tb testing.TB, tags string) []*steps.Exchange {
	tb.Helper()
	var (
		mu  sync.Mutex
		out []*steps.Exchange
	)
	_, err := runner.Run(context.Background(), runner.Config{
		Features: toolcert.Features(), FeaturePaths: []string{"features"},
		Fixtures: toolcert.Fixtures(), Target: reference.InProcess(), Profile: target.DefaultProfile(),
		Concurrency: 2, Tags: tags,
		Observe: func(r steps.Record) {
			mu.Lock()
			out = append(out, r.Exchanges...)
			mu.Unlock()
		},
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

type floorLane struct {
	up   *mocks.Upstream
	inst target.Instance
}

func newFloorLane(tb testing.TB) *floorLane {
	tb.Helper()
	up, err := mocks.NewUpstream()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { up.Close() })
	audit := filepath.Join(tb.TempDir(), "audit.jsonl")
	env := target.Env{UpstreamURL: up.URL(), AuditFile: audit, Extra: target.DefaultProfile().Vars()}
	inst, err := reference.InProcess().Start(context.Background(), env)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { inst.Stop(context.Background()) })
	return &floorLane{up: up, inst: inst}
}

func (l *floorLane) send(tb testing.TB, c *target.Client, x *steps.Exchange) {
	l.up.Reset()
	for _, r := range x.Routes {
		if err := l.up.Program(r.Method, r.Path, r.Seq...); err != nil {
			tb.Error(err)
			return
		}
	}
	ctx := context.Background()
	if _, err := c.Invoke(ctx, l.inst.URL(), x.Tool, x.Args, target.DefaultProfile().Token); err != nil {
		tb.Error(err)
	}
	sctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_ = l.up.Settle(sctx)
}

// BenchmarkVariants measures generated variants served through the
// reference adapter and checked (outcome, contract, audit, journal, leak
// scan), on two lanes; it reports variants per second.
func BenchmarkVariants(b *testing.B) {
	cases := 0
	for b.Loop() {
		res := featuresRun(b, reference.InProcess(), "", "features/generated_variants.feature")
		if res.Summary.CasesFailed != 0 {
			b.Fatalf("reference failed %d generated cases", res.Summary.CasesFailed)
		}
		cases += res.Summary.Cases
	}
	b.ReportMetric(float64(cases)/b.Elapsed().Seconds(), "variants/s")
}
