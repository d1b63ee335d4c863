package selftest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/mocks"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/targets"
)

// floorWorkers is how many agent calls the floor makes at once: the lanes
// of BenchmarkVariants.
const floorWorkers = runner.DefaultConcurrency

// floorPath and floorArgs are the floor's upstream path and agent call.
const floorPath = "/projects/bluebird/runs/run_7Hq2LmX9pQ4s"

var floorArgs = []byte(`{"arguments":{"project_id":"bluebird","run_id":"run_7Hq2LmX9pQ4s"}}`)

// floorBody is what the floor's upstream answers: the size of a built-in
// accepted example.
var floorBody = []byte(`{"project_id":"bluebird","run_id":"run_7Hq2LmX9pQ4s","state":"failed","attempt":2,"observed_at":"2026-12-01T08:00:00Z"}`)

// floor is the bare round trip under every generated case: an agent call
// to an adapter that makes one upstream request on a fresh connection (as
// the protocol's adapters do: a new connection per attempt) and answers.
// No mock programming, no assertion, no audit read, no leak scan.
type floor struct {
	call func(worker int) error
}

// startFloor starts the minimal floor: a minimal adapter on loopback that
// answers a fixed envelope, called over a kept-alive agent connection per
// worker (BenchmarkFloor's alone: the reference's own work is more than a
// tenth of it).
func startFloor(tb testing.TB) *floor {
	tb.Helper()
	agent := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: floorWorkers}, Timeout: 5 * time.Second}
	return minimalFloor(tb, agent)
}

// startFreshFloor is the floor with a fresh agent connection per call, as
// the harness makes its agent calls (targets.Client).
func startFreshFloor(tb testing.TB) *floor {
	tb.Helper()
	agent := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 5 * time.Second}
	return minimalFloor(tb, agent)
}

// minimalFloor serves the floor's upstream and minimal adapter and calls
// the adapter with agent.
func minimalFloor(tb testing.TB, agent *http.Client) *floor {
	tb.Helper()
	upstream := serveLoopback(tb, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(floorBody)
	}))
	fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 5 * time.Second}
	adapter := serveLoopback(tb, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		resp, err := fresh.Get(upstream + floorPath)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"tool":"run_status","request_id":"req.J7q94MkP","outcome":"failure","error":{"code":"INVALID_RESPONSE","retryable":false}}`))
	}))
	return &floor{call: func(int) error {
		resp, err := agent.Post(adapter+"/v1/tools/run_status/invoke", "application/json", bytes.NewReader(floorArgs))
		if err != nil {
			return fmt.Errorf("floor call: %w", err)
		}
		defer resp.Body.Close()
		_, err = io.Copy(io.Discard, resp.Body)
		return err
	}}
}

// startReferenceFloor is the same round trip through the reference adapter
// (one lane per worker, its mock programmed once with the floor's answer)
// with the harness's agent client: what the adapter under test costs, and
// no more of the harness than its client.
func startReferenceFloor(tb testing.TB) *floor {
	tb.Helper()
	pool := startPool(tb, floorWorkers)
	lanes := pool.Lanes()
	for _, l := range lanes {
		err := l.Upstream.Program(http.MethodGet, floorPath, mocks.Response{Status: http.StatusOK,
			Header: []mocks.HeaderField{{Name: "Content-Type", Value: "application/json"}}, Body: floorBody})
		if err != nil {
			tb.Fatal(err)
		}
	}
	profile := targets.DefaultProfile()
	client := targets.NewClient(targets.WithTimeout(profile.CallTimeout()))
	return &floor{call: func(worker int) error {
		out, err := client.Invoke(context.Background(), lanes[worker].Target.URL(), "run_status", floorArgs[len(`{"arguments":`):len(floorArgs)-1], profile.Token)
		if err == nil && out.StatusCode != http.StatusOK {
			err = fmt.Errorf("reference floor call: %s", out.StatusLine)
		}
		return err
	}}
}

// startReplayFloor replays the generated cases' own answers and agent
// calls through the reference (one lane per worker), each trip the next
// case's: the mock programmed with the case's rendered answer, the call,
// no check. Its rate against the reference floor's is what the adapter's
// own work on hostile answers costs (over-limit bodies, retries after a
// 5xx); the variants' rate against it, what the harness's generation,
// bookkeeping and checks cost.
func startReplayFloor(tb testing.TB) *floor {
	tb.Helper()
	xs := recordExchanges(tb, "features/generated_variants.feature", "")
	lanes := startPool(tb, floorWorkers).Lanes()
	client := targets.NewClient(targets.WithTimeout(targets.DefaultProfile().CallTimeout()))
	var next atomic.Uint64
	return &floor{call: func(worker int) error {
		x := xs[(next.Add(1)-1)%uint64(len(xs))]
		return send(lanes[worker], client, x)
	}}
}

// serveLoopback serves h on 127.0.0.1 until tb ends and returns its URL.
func serveLoopback(tb testing.TB, h http.Handler) string {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(l) }()
	tb.Cleanup(func() { _ = srv.Shutdown(context.Background()) })
	return "http://" + l.Addr().String()
}

// run makes n agent calls on floorWorkers workers and returns how long
// they took, once the machine's connection tracking table has room; each
// call waits for room as a lane's does (harness.Conntrack).
func (f *floor) run(tb testing.TB, n int) time.Duration {
	tb.Helper()
	harness.Shared.Room(context.Background()) // as a run's lanes wait, untimed: see harness.Conntrack
	start := time.Now()
	next := make(chan int)
	var wg sync.WaitGroup
	for worker := range floorWorkers {
		wg.Go(func() {
			for range next {
				harness.Shared.Room(context.Background()) // as Lane.Call waits before each call
				if err := f.call(worker); err != nil {
					tb.Error(err)
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return time.Since(start)
}

// BenchmarkFloor is the floor of BenchmarkVariants alone: as many bare
// round trips as the built-in generated cases, on as many workers as it
// has lanes, through the minimal adapter (kept-alive and fresh agent
// connections), through the reference adapter (its one honest answer, and
// the replay of the generated cases' own answers), and through the
// reference served over MCP stdio to a bare go-sdk client. It reports
// round trips per second.
func BenchmarkFloor(b *testing.B) {
	for _, fl := range []struct {
		name  string
		start func(testing.TB) *floor
	}{{"minimal", startFloor}, {"minimal-fresh-agent", startFreshFloor}, {"reference", startReferenceFloor}, {"replay", startReplayFloor}, {"mcp", startMCPFloor}} {
		b.Run(fl.name, func(b *testing.B) {
			f := fl.start(b)
			const n = 2533
			var total time.Duration
			for b.Loop() {
				total += f.run(b, n)
			}
			b.ReportMetric(float64(n*b.N)/total.Seconds(), "trips/s")
		})
	}
}

// startMCPFloor is the round trip over MCP: the reference served by
// `toolcert adapter --mcp stdio`, one process per worker, each with a mock
// programmed once with the floor's answer and the environment of a lane
// (laneEnv), called by a bare go-sdk client with the session token in
// _meta, as the harness calls.
// No check of any kind: what the adapter under test and the transport
// cost, and nothing of the harness.
func startMCPFloor(tb testing.TB) *floor {
	tb.Helper()
	bin := toolcertBinary(tb)
	sessions := make([]*mcp.ClientSession, floorWorkers)
	for i := range sessions {
		up, err := mocks.NewUpstream()
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { _ = up.Close() })
		err = up.Program(http.MethodGet, floorPath, mocks.Response{Status: http.StatusOK,
			Header: []mocks.HeaderField{{Name: "Content-Type", Value: "application/json"}}, Body: floorBody})
		if err != nil {
			tb.Fatal(err)
		}
		cmd := exec.Command(bin, "adapter", "--mcp", "stdio")
		cmd.Env = append(os.Environ(), laneEnv(tb, up.URL()).Vars(nil)...)
		client := mcp.NewClient(&mcp.Implementation{Name: "floor", Version: "0"}, nil)
		s, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			tb.Fatalf("start the reference over MCP: %v", err)
		}
		tb.Cleanup(func() { _ = s.Close() })
		sessions[i] = s
	}
	var args map[string]any
	if err := json.Unmarshal(floorArgs, &args); err != nil {
		tb.Fatal(err)
	}
	meta := mcp.Meta(harness.TokenMeta(targets.DefaultProfile().Token))
	return &floor{call: func(worker int) error {
		// the outcome is not read, as the v1 floors do not read theirs: a
		// result, success or failure, is a round trip
		_, err := sessions[worker].CallTool(context.Background(), &mcp.CallToolParams{Name: "run_status", Arguments: args["arguments"], Meta: meta})
		return err
	}}
}

// laneEnv is the environment the harness gives a lane's target (an audit
// log, the corpus's policy, the default profile), with upstream: the
// reference's work per call in a floor is the same as in a run.
func laneEnv(tb testing.TB, upstream string) targets.Env {
	tb.Helper()
	dir := tb.TempDir()
	policy, err := fs.ReadFile(toolcert.Fixtures(), corpus.PolicyFile)
	if err != nil {
		tb.Fatal(err)
	}
	env := targets.Env{UpstreamURL: upstream, AuditFile: filepath.Join(dir, "audit.jsonl"), PolicyFile: filepath.Join(dir, corpus.PolicyFile),
		Dir: dir, Extra: targets.DefaultProfile().Vars()}
	if err := os.WriteFile(env.PolicyFile, policy, 0o600); err != nil {
		tb.Fatal(err)
	}
	return env
}
