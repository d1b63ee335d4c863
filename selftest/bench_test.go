package selftest_test

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/cucumber/godog"
	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/steps"
	"github.com/toolcert/toolcert/targets"
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
			scenarios := 0
			for b.Loop() {
				res := builtinRun(b, reference.InProcess(), set.tags)
				if res.Summary.Failed != 0 {
					b.Fatalf("reference failed %d scenarios", res.Summary.Failed)
				}
				scenarios += res.Summary.Scenarios
			}
			b.ReportMetric(float64(scenarios)/float64(b.N), "scenarios/op")
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
	exchanges := recordExchanges(b, "features", tags)
	pool := startPool(b, 2)
	client := targets.NewClient(targets.WithTimeout(targets.DefaultProfile().CallTimeout()))
	for b.Loop() {
		var wg sync.WaitGroup
		next := make(chan harness.Exchange)
		for _, l := range pool.Lanes() {
			wg.Go(func() {
				for x := range next {
					if err := send(l, client, x); err != nil {
						b.Error(err)
					}
				}
			})
		}
		for _, x := range exchanges {
			next <- x
		}
		close(next)
		wg.Wait()
	}
	b.ReportMetric(float64(len(exchanges)), "exchanges/op")
}

// startPool starts n lanes of the in-process reference adapter, stopped
// when tb ends.
func startPool(tb testing.TB, n int) *harness.Pool {
	tb.Helper()
	pool, err := harness.StartPool(context.Background(), harness.PoolConfig{
		Lanes: n, Target: reference.InProcess(), Profile: targets.DefaultProfile(),
		Fixtures: toolcert.Fixtures(), Dir: tb.TempDir(),
	})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { pool.Close(context.Background()) })
	return pool
}

// recordExchanges runs the built-in features under path once, as the
// runner does but with an After hook of its own, and keeps each scenario's
// programmed answers and agent calls (a generated case's among them).
func recordExchanges(tb testing.TB, path, tags string) []harness.Exchange {
	tb.Helper()
	var (
		mu  sync.Mutex
		out []harness.Exchange
	)
	suite := &steps.Suite{
		Corpus: corpus.New(toolcert.Fixtures()), Profile: targets.DefaultProfile(), Seed: 1,
		Client: targets.NewClient(targets.WithTimeout(targets.DefaultProfile().CallTimeout())),
		Lanes:  startPool(tb, 2),
	}
	status := godog.TestSuite{
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			steps.Register(sc, suite)
			sc.After(func(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
				if rec, ok := steps.Result(ctx); ok {
					mu.Lock()
					out = append(out, rec.Exchanges...)
					mu.Unlock()
				}
				return ctx, err
			})
		},
		Options: &godog.Options{Format: "progress", Output: io.Discard, FS: toolcert.Features(), Paths: []string{path},
			Tags: tags, Concurrency: 2, Strict: true, NoColors: true},
	}.Run()
	if status != 0 {
		tb.Fatalf("the built-in features failed against the reference (godog status %d)", status)
	}
	return out
}

// send serves x's answers on lane and makes its agent call: no assertion.
func send(lane *harness.Lane, c *targets.Client, x harness.Exchange) error {
	lane.Upstream.Reset()
	if err := lane.Program(x.Routes); err != nil {
		return err
	}
	ctx := context.Background()
	_, err := c.Invoke(ctx, lane.Target.URL(), x.Tool, x.Args, targets.DefaultProfile().Token)
	sctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_ = lane.Upstream.Settle(sctx)
	return err
}

// BenchmarkVariants measures generated variants served through the
// reference adapter and checked (outcome, contract, baseline comparison,
// audit, journal, leak scan), on the default lanes, over protocol v1
// (v1: the reference in process) and over MCP (mcp: the reference served
// by `toolcert adapter --mcp stdio`, a process per lane). It reports
// variants per second and their ratio to the floor of the transport
// (BenchmarkFloor's round trips per second, measured for as many trips in
// the same process right after each run; see variantsRatio):
// reference-ratio over v1, to the reference adapter behind the harness's
// client; mcp-ratio over MCP, to a bare go-sdk client's calls of the
// reference over MCP stdio. Over v1 it also reports replay-ratio, to the
// replay floor (the same cases' answers and calls, nothing generated or
// checked): what the harness costs apart from the adapter's own work on
// hostile answers, which the reference floor's one honest answer does not
// ask of it. The minimal adapter's floors are BenchmarkFloor's alone: the
// reference's own work is more than a tenth of them, so no ratio to them
// can say what the harness costs.
func BenchmarkVariants(b *testing.B) {
	b.Run("v1", func(b *testing.B) {
		variantsRatio(b, reference.InProcess(), []floorRatio{{"reference-ratio", startReferenceFloor}, {"replay-ratio", startReplayFloor}})
	})
	b.Run("mcp", func(b *testing.B) {
		tgt, err := targets.NewMCPStdio([]string{toolcertBinary(b), "adapter", "--mcp", "stdio"})
		if err != nil {
			b.Fatal(err)
		}
		variantsRatio(b, tgt, []floorRatio{{"mcp-ratio", startMCPFloor}})
	})
}

// floorRatio is a floor and the metric of a rate's ratio to it.
type floorRatio struct {
	metric string
	start  func(testing.TB) *floor
}

// variantsRatio runs the generated variants against tgt, reports their
// rate, and its ratio to each floor. The floors are started once, and each
// run of the variants is followed by as many trips of each floor: a ratio
// is of two times measured side by side, so that what drifts on a shared
// machine (its load, the sockets in TIME_WAIT, the heap) weighs on both.
// The ratio reported is the median of the runs' ratios: a stall of a
// second (a SYN lost on loopback and sent again, as this machine's
// TcpExtTCPSynRetrans counts) falls on one run of one side and would
// otherwise decide the figure.
//
// It also reports checks-share: the lane time the harness's checks took
// per case (the run's summary.case_time.checks) over the lane time of a
// trip of the first floor, the "a tenth of a bare round trip";
// and calls-share, the same for the cases' calls, which is near 1 when a
// case's call costs what a floor's trip does.
func variantsRatio(b *testing.B, tgt targets.Target, floors []floorRatio) {
	started := make([]*floor, len(floors))
	for i, fl := range floors {
		started[i] = fl.start(b)
	}
	var spent time.Duration
	ratios := make([][]float64, len(floors))
	var checks, calls []float64
	cases := 0
	for b.Loop() {
		harness.Shared.Room(context.Background()) // as each floor waits
		t := time.Now()
		res := lanesResult(b, tgt, runner.DefaultConcurrency)
		took := time.Since(t)
		n := res.Summary.Cases
		spent += took
		cases += n
		for i, f := range started {
			ft := f.run(b, n)
			ratios[i] = append(ratios[i], ft.Seconds()/took.Seconds())
			if i == 0 {
				trip := floorWorkers * ft.Seconds() / float64(n) // a trip's lane time
				ct := res.Summary.CaseTime
				checks = append(checks, ct.Checks.Seconds()/float64(n)/trip)
				calls = append(calls, ct.Calls.Seconds()/float64(n)/trip)
			}
		}
	}
	b.ReportMetric(float64(cases)/spent.Seconds(), "variants/s")
	b.ReportMetric(float64(cases)/float64(b.N), "cases/op")
	for i, fl := range floors {
		b.ReportMetric(median(ratios[i]), fl.metric)
	}
	b.ReportMetric(median(checks), "checks-share")
	b.ReportMetric(median(calls), "calls-share")
}

// median returns the median of xs (the mean of the middle two when their
// number is even); xs is sorted in place.
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// BenchmarkVariantsLanes runs BenchmarkVariants' cases on 1, 2, 4 and 8
// lanes: how the run scales with the cores.
func BenchmarkVariantsLanes(b *testing.B) {
	for _, lanes := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("lanes=%d", lanes), func(b *testing.B) {
			cases := 0
			for b.Loop() {
				cases += lanesRun(b, reference.InProcess(), lanes)
			}
			b.ReportMetric(float64(cases)/b.Elapsed().Seconds(), "variants/s")
		})
	}
}

// lanesRun runs the generated variants against tgt on lanes lanes and
// returns how many cases ran.
func lanesRun(b testing.TB, tgt targets.Target, lanes int) int {
	b.Helper()
	return lanesResult(b, tgt, lanes).Summary.Cases
}

// lanesResult runs the generated variants against tgt on lanes lanes and
// returns the run's result; every case must pass.
func lanesResult(b testing.TB, tgt targets.Target, lanes int) *reports.Result {
	b.Helper()
	res, err := runner.Run(context.Background(), runner.Config{
		FeaturePaths: []string{"features/generated_variants.feature"}, Target: tgt, Concurrency: lanes,
	})
	if err != nil {
		b.Fatal(err)
	}
	if res.Summary.CasesFailed != 0 {
		b.Fatalf("reference failed %d generated cases", res.Summary.CasesFailed)
	}
	if res.Summary.CaseTime == nil {
		b.Fatal("the run's summary has no case_time")
	}
	return res
}
