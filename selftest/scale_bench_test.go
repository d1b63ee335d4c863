package selftest_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/targets"
)

// scaleTools are the corpus sizes BenchmarkScale runs: about 3,000 and
// about 30,000 generated cases.
var scaleTools = []int{5, 50}

// BenchmarkScale runs every generated variant of a corpus of cloned tools
// (writeScaleCorpus: 5 tools, about 3,000 cases; 50 tools, about 30,000)
// against the in-process reference serving the clones, on two lanes. It
// reports the cases of one run, cases/s and ns/case (flat from one size to
// the other when the run's time grows linearly with its cases), and three
// memory figures: peak-MB, the largest Go heap and stacks in use
// (HeapInuse+StackInuse) sampled every 10 ms during the runs; live-MB, the
// heap still reachable after the last run while its result is held; and
// hwm-MB, the process's peak resident set (VmHWM, Linux only), reset before
// the runs where the kernel allows it and otherwise the high-water mark
// since the process started. Run the large size alone with
// -bench 'BenchmarkScale/tools=50$' -benchtime 1x.
func BenchmarkScale(b *testing.B) {
	for _, tools := range scaleTools {
		b.Run(fmt.Sprintf("tools=%d", tools), func(b *testing.B) {
			sc := writeScaleCorpus(b, tools)
			target := reference.InProcessClones(sc.Clones)
			if !resetHWM() {
				b.Log("VmHWM not reset: hwm-MB is the process's high-water mark since it started")
			}
			peak := startPeak()
			cases := 0
			var res *reports.Result
			for b.Loop() {
				res = scaleRun(b, sc, target)
				cases += res.Summary.Cases
			}
			b.StopTimer()
			peakBytes := peak.stop()
			b.ReportMetric(float64(cases)/float64(b.N), "cases/op")
			b.ReportMetric(float64(cases)/b.Elapsed().Seconds(), "cases/s")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(cases), "ns/case")
			b.ReportMetric(megabytes(peakBytes), "peak-MB")
			b.ReportMetric(megabytes(liveHeap()), "live-MB")
			runtime.KeepAlive(res)
			if hwm, ok := vmHWM(); ok {
				b.ReportMetric(megabytes(hwm), "hwm-MB")
			}
		})
	}
}

// scaleRun runs sc's feature against target on two lanes and fails b
// unless every scenario and case passed.
func scaleRun(b *testing.B, sc scaleCorpus, target *targets.InProcess) *reports.Result {
	b.Helper()
	res, err := runner.Run(context.Background(), runner.Config{
		Features: sc.Features, Fixtures: sc.Fixtures, Profile: sc.Profile, Target: target, Concurrency: 2,
	})
	if err != nil {
		b.Fatal(err)
	}
	if res.Summary.Failed != 0 || res.Summary.CasesFailed != 0 {
		b.Fatalf("reference failed %d scenarios, %d generated cases of the scale corpus", res.Summary.Failed, res.Summary.CasesFailed)
	}
	return res
}

// peak samples the Go heap and stacks in use every 10 ms until stop.
type peak struct {
	done chan struct{}
	max  chan uint64
}

// startPeak starts sampling; the caller must call stop.
func startPeak() *peak {
	p := &peak{done: make(chan struct{}), max: make(chan uint64, 1)}
	go func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		most := inUse()
		for {
			select {
			case <-p.done:
				p.max <- max(most, inUse())
				return
			case <-tick.C:
				most = max(most, inUse())
			}
		}
	}()
	return p
}

// stop ends the sampling and returns the largest sample, in bytes.
func (p *peak) stop() uint64 {
	close(p.done)
	return <-p.max
}

// inUse returns the bytes of heap spans and stacks in use now.
func inUse() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse + m.StackInuse
}

// liveHeap returns the bytes of heap objects reachable now, after a
// collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// resetHWM resets the process's peak resident set (Linux's clear_refs
// "5") and reports whether it could.
func resetHWM() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// vmHWM returns the process's peak resident set in bytes, from the VmHWM
// line of /proc/self/status; false where there is none.
func vmHWM() (uint64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmHWM:"))
		if !ok {
			continue
		}
		kb, err := strconv.ParseUint(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(" kB"))), 10, 64)
		return kb << 10, err == nil
	}
	return 0, false
}

// megabytes returns n bytes in MB (2^20 bytes).
func megabytes(n uint64) float64 { return float64(n) / (1 << 20) }
