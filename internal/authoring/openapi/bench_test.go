package openapi

import (
	"context"
	"os"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/toolcert/toolcert/internal/authoring/scaffold"
)

// BenchmarkLoadLarge loads a generated description of about 10 MB (3000
// paths, 6000 operations, 3000 components with $refs between them) and
// extracts its deepest operation; it reports the peak Go heap, sampled
// every millisecond.
//
// Load is libopenapi's parse of the whole document into a node tree (its
// document check included); Operation reads only the chosen path item and
// the $refs it reaches, so libopenapi's model is never built. Measured on
// a 2-core AMD EPYC:
//
//	go test -run '^$' -bench BenchmarkLoadLarge -benchtime 5x ./internal/authoring/openapi/
//	BenchmarkLoadLarge-2  5  888958556 ns/op  229.2 peak-heap-MB  9.865 spec-MB  207217769 B/op  3711478 allocs/op
//
// of which Load is about 0.64 s and 190 MB. Building libopenapi's whole
// model instead (libopenapi.NewDocument, BuildV3Model, then the one
// schema) took 1.50 s/op, 611 MB peak heap, 445 MB and 6.8 million
// allocations per op on the same description, and grows with every
// operation the user does not ask for.
func BenchmarkLoadLarge(b *testing.B) {
	path, id := writeLargeDescription(b, b.TempDir())
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	peak := sampleHeap(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		loadOperation(b, path, id)
	}
	b.StopTimer()
	b.ReportMetric(peak()/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(info.Size())/(1<<20), "spec-MB")
}

// loadOperation reads and loads the description at path and finds the
// operation id.
func loadOperation(b *testing.B, path, id string) *Operation {
	spec, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	d, err := Load(spec, Options{})
	if err != nil {
		b.Fatal(err)
	}
	op, err := d.Operation(Selector{OperationID: id})
	if err != nil {
		b.Fatal(err)
	}
	return op
}

// sampleHeap samples the live Go heap every millisecond until the
// benchmark ends; the returned function stops sampling and returns the
// highest value seen, in bytes.
func sampleHeap(tb testing.TB) func() float64 {
	tb.Helper()
	runtime.GC()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var peak uint64
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	stop := func() float64 {
		cancel()
		wg.Wait()
		return float64(peak)
	}
	tb.Cleanup(func() { stop() })
	return stop
}

// BenchmarkImportLarge is BenchmarkLoadLarge through the whole of
// toolcert fixtures import: the operation becomes a tool (its deepest
// schema, a minimal example made from it), and scaffold writes and lints
// its folder.
func BenchmarkImportLarge(b *testing.B) {
	path, id := writeLargeDescription(b, b.TempDir())
	out := b.TempDir()
	if dir := os.Getenv("TOOLCERT_BENCH_OUT"); dir != "" {
		out = dir // and the description beside it, for the CLI
		if b, err := os.ReadFile(path); err == nil {
			_ = os.WriteFile(dir+"/large.yaml", b, 0o644)
		}
	}
	peak := sampleHeap(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		tool, err := loadOperation(b, path, id).Tool(ToolOptions{Name: "thing", Keep: []string{"/id", "/name", "/owner/name"}})
		if err != nil {
			b.Fatal(err)
		}
		res, err := scaffold.Write(out, tool, scaffold.Options{Force: true, Arguments: map[string]string{"org": "acme", "thing_id": "7"}})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Problems) > 0 {
			b.Fatalf("lint of %s: %v", res.Dir, res.Problems)
		}
	}
	b.StopTimer()
	b.ReportMetric(peak()/(1<<20), "peak-heap-MB")
}
