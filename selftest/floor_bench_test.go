package selftest_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/toolcert/toolcert/runner"
)

// floorWorkers is how many agent calls the floor makes at once: the lanes
// of BenchmarkVariants.
const floorWorkers = runner.DefaultConcurrency

// floorBody is what the floor's upstream answers: the size of a built-in
// accepted example.
var floorBody = []byte(`{"project_id":"bluebird","run_id":"run_7Hq2LmX9pQ4s","state":"failed","attempt":2,"observed_at":"2026-12-01T08:00:00Z"}`)

// floor is the bare round trip under every generated case: an agent call
// to a minimal adapter that makes one upstream request on a fresh
// connection (as the protocol's adapters do: a new connection per
// attempt) and answers with a fixed envelope. No mock programming, no
// assertion, no audit, no leak scan.
type floor struct {
	agent   *http.Client
	adapter string
}

// startFloor starts the floor's upstream and adapter on loopback.
func startFloor(tb testing.TB) *floor {
	tb.Helper()
	upstream := serveLoopback(tb, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(floorBody)
	}))
	fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 5 * time.Second}
	adapter := serveLoopback(tb, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		resp, err := fresh.Get(upstream + "/v1/runs/run_7Hq2LmX9pQ4s")
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"tool":"run_status","request_id":"req.J7q94MkP","outcome":"failure","error":{"code":"INVALID_RESPONSE","retryable":false}}`))
	}))
	return &floor{agent: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: floorWorkers}, Timeout: 5 * time.Second}, adapter: adapter}
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
// they took.
func (f *floor) run(tb testing.TB, n int) time.Duration {
	tb.Helper()
	start := time.Now()
	next := make(chan int)
	var wg sync.WaitGroup
	for range floorWorkers {
		wg.Go(func() {
			for range next {
				if err := f.call(); err != nil {
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

// call is one agent call of the floor.
func (f *floor) call() error {
	resp, err := f.agent.Post(f.adapter+"/v1/tools/run_status/invoke", "application/json",
		bytes.NewReader([]byte(`{"arguments":{"project_id":"bluebird","run_id":"run_7Hq2LmX9pQ4s"}}`)))
	if err != nil {
		return fmt.Errorf("floor call: %w", err)
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return err
}

// BenchmarkFloor is the floor of BenchmarkVariants alone: as many bare
// round trips as the built-in generated cases, on as many workers as it
// has lanes. It reports round trips per second.
func BenchmarkFloor(b *testing.B) {
	f := startFloor(b)
	const n = 2533
	var total time.Duration
	for b.Loop() {
		total += f.run(b, n)
	}
	b.ReportMetric(float64(n*b.N)/total.Seconds(), "trips/s")
}
