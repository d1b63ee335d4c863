package harness_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/targets"
)

// buildFakeAdapter compiles the targets package's fake adapter.
func buildFakeAdapter(tb testing.TB) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "fakeadapter")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "../../targets/testdata/fakeadapter").CombinedOutput()
	if err != nil {
		tb.Fatalf("build fakeadapter: %v\n%s", err, out)
	}
	return bin
}

// startPool starts a pool of lanes running bin with args, closed at the
// end of the test.
func startPool(tb testing.TB, lanes int, bin string, args ...string) *harness.Pool {
	tb.Helper()
	target, err := targets.NewProcess(append([]string{bin}, args...))
	if err != nil {
		tb.Fatal(err)
	}
	pool, err := harness.StartPool(context.Background(), harness.PoolConfig{Lanes: lanes, Target: target, Dir: tb.TempDir()})
	if err != nil {
		tb.Fatalf("StartPool: %v", err)
	}
	tb.Cleanup(func() { pool.Close(context.Background()) })
	return pool
}

func TestPoolExposed(t *testing.T) {
	bin := buildFakeAdapter(t)
	tests := []struct {
		name string
		args []string
		want string // a pattern of each lane's one entry, with PORT for its listen port; "" for none
	}{
		{"a target on the loopback address it was given", nil, ""},
		{"a target on every interface", []string{"-bind", "0.0.0.0"}, `^tcp (0\.0\.0\.0|\[::\]):PORT \(pid \d+: .*fakeadapter -bind 0\.0\.0\.0\)$`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pool := startPool(t, 2, bin, tt.args...)
			for _, lane := range pool.Lanes() {
				if lane.ExposedErr != nil {
					t.Errorf("lane %d: ExposedErr %v", lane.ID, lane.ExposedErr)
				}
				if tt.want == "" {
					if len(lane.Exposed) != 0 {
						t.Errorf("lane %d: Exposed %q, want none", lane.ID, lane.Exposed)
					}
					continue
				}
				port := lane.Target.URL()[strings.LastIndex(lane.Target.URL(), ":")+1:]
				want := regexp.MustCompile(strings.Replace(tt.want, "PORT", port, 1))
				if len(lane.Exposed) != 1 || !want.MatchString(lane.Exposed[0]) {
					t.Errorf("lane %d: Exposed %q, want one entry matching %s", lane.ID, lane.Exposed, want)
				}
			}
		})
	}
}

// TestPoolLeftovers checks that a lane keeps what its targets left
// running: the orphan of the target that died (replaced by Acquire) and
// that of the target stopped by Close.
func TestPoolLeftovers(t *testing.T) {
	bin := buildFakeAdapter(t)
	pool := startPool(t, 1, bin, "-spawn", "double-fork")
	lane := pool.Lanes()[0]
	first := spawned(t, lane.Target.URL())
	if resp, err := http.Get(lane.Target.URL() + "/exit"); err == nil {
		resp.Body.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for lane.Target.Alive(ctx) == nil && ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := pool.Acquire(ctx); err != nil {
		t.Fatalf("Acquire: %v", err)
	}
	if pool.Restarts() != 1 {
		t.Fatalf("Restarts() = %d, want 1", pool.Restarts())
	}
	second := spawned(t, lane.Target.URL())
	pool.Release(lane)
	if err := pool.Close(context.Background()); err != nil {
		t.Errorf("Close: %v", err)
	}
	want := []string{fmt.Sprintf("pid %d: ", first), fmt.Sprintf("pid %d: ", second)}
	if len(lane.Leftovers) != 2 || !strings.HasPrefix(lane.Leftovers[0], want[0]) || !strings.HasPrefix(lane.Leftovers[1], want[1]) {
		t.Errorf("Leftovers %q, want the two orphans, starting %q", lane.Leftovers, want)
	}
	for _, pid := range []int{first, second} {
		if running(pid) {
			t.Errorf("orphan %d still runs after Close", pid)
		}
	}
}

// spawned returns the pid of the orphan the fake adapter at base spawned,
// and makes sure it is gone at the end of the test.
func spawned(tb testing.TB, base string) int {
	tb.Helper()
	resp, err := http.Get(base + "/spawned")
	if err != nil {
		tb.Fatalf("GET /spawned: %v", err)
	}
	defer resp.Body.Close()
	var pid int
	if _, err := fmt.Fscan(resp.Body, &pid); err != nil || pid <= 0 {
		tb.Fatalf("GET /spawned: %d, %v", pid, err)
	}
	tb.Cleanup(func() {
		if running(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return pid
}

// running reports whether pid is the fake adapter's orphan and has not
// exited.
func running(pid int) bool {
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return err == nil && strings.Contains(string(cmdline), "-hostile-role")
}

func TestPoolLendsOnlyFreeLanesNoOneWaitsFor(t *testing.T) {
	pool := startPool(t, 2, buildFakeAdapter(t))
	ctx := context.Background()
	held, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lent, ok := pool.TryAcquire(ctx)
	if !ok || lent == held {
		t.Fatalf("TryAcquire = %v, %v with one lane free: want the free lane", lent, ok)
	}
	if _, ok := pool.TryAcquire(ctx); ok {
		t.Fatal("TryAcquire lent a lane when none was free")
	}
	got := make(chan *harness.Lane)
	go func() {
		l, err := pool.Acquire(ctx)
		if err != nil {
			t.Error(err)
		}
		got <- l
	}()
	deadline := time.Now().Add(5 * time.Second)
	for !pool.Wanted() {
		if time.Now().After(deadline) {
			t.Fatal("Wanted is still false while a caller of Acquire waits")
		}
		time.Sleep(time.Millisecond)
	}
	pool.Release(lent)
	if l := <-got; l != lent {
		t.Errorf("the waiting caller got lane %v, want the lane given back", l)
	}
	if pool.Wanted() {
		t.Error("Wanted is true with no caller waiting")
	}
	pool.Release(held)
	if l, ok := pool.TryAcquire(ctx); !ok || l != held {
		t.Errorf("TryAcquire = %v, %v: want the lane given back", l, ok)
	}
}

// TestPoolKeepsTargetLogs: what each target printed is appended to its
// lane's target.log, when a dead target is replaced and when the pool
// closes.
func TestPoolKeepsTargetLogs(t *testing.T) {
	bin := buildFakeAdapter(t)
	target, err := targets.NewProcess([]string{bin})
	if err != nil {
		t.Fatal(err)
	}
	pool, err := harness.StartPool(context.Background(), harness.PoolConfig{Lanes: 1, Target: target, Dir: t.TempDir()})
	if err != nil {
		t.Fatalf("StartPool: %v", err)
	}
	lane := pool.Lanes()[0]
	if resp, err := http.Get(lane.Target.URL() + "/exit"); err == nil {
		resp.Body.Close()
	}
	if err := pool.Revive(context.Background(), lane); err != nil {
		t.Fatalf("Revive: %v", err)
	}
	if err := pool.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	raw, err := os.ReadFile(filepath.Join(lane.Dir, harness.TargetLog))
	if err != nil {
		t.Fatal(err)
	}
	log := string(raw)
	if strings.Count(log, "fakeadapter: starting") != 2 || !strings.Contains(log, "fakeadapter: exiting on request") {
		t.Errorf("target.log holds:\n%s\nwant both targets' starts and the first one's exit", log)
	}
	if pool.Restarts() != 1 {
		t.Errorf("%d restarts, want 1", pool.Restarts())
	}
}

// TestPoolStartsAndStopsLanesInParallel: a target that takes 2 s to
// become ready costs about 2 s at four lanes, not 8; one that ignores
// SIGTERM costs its stop grace once when the pool closes, not once per
// lane; and each lane keeps its own target.log. The bounds leave room for
// a loaded machine, below what the lanes one after another take.
func TestPoolStartsAndStopsLanesInParallel(t *testing.T) {
	bin := buildFakeAdapter(t)
	const lanes, ready, grace = 4, 2 * time.Second, 2 * time.Second
	target, err := targets.NewProcess([]string{bin, "-ready-after", ready.String(), "-ignore-term"}, targets.WithStopGrace(grace))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	pool, err := harness.StartPool(context.Background(), harness.PoolConfig{Lanes: lanes, Target: target, Dir: t.TempDir()})
	if err != nil {
		t.Fatalf("StartPool: %v", err)
	}
	t.Cleanup(func() { pool.Close(context.Background()) })
	if took := time.Since(start); took < ready || took > 3*ready {
		t.Errorf("StartPool took %v for %d lanes of a %v start: want about %v, in parallel", took, lanes, ready, ready)
	}
	if got := len(pool.Lanes()); got != lanes {
		t.Fatalf("%d lanes, want %d", got, lanes)
	}
	start = time.Now()
	if err := pool.Close(context.Background()); err != nil {
		t.Errorf("Close: %v", err)
	}
	if took := time.Since(start); took < grace || took > 3*grace {
		t.Errorf("Close took %v for %d lanes that ignore SIGTERM, with a %v stop grace: want about %v, in parallel", took, lanes, grace, grace)
	}
	for _, lane := range pool.Lanes() {
		raw, err := os.ReadFile(filepath.Join(lane.Dir, harness.TargetLog))
		if err != nil || strings.Count(string(raw), "fakeadapter: starting") != 1 {
			t.Errorf("lane %d: target.log %q (%v), want its one target's output", lane.ID, raw, err)
		}
	}
}

// failingLane is a target whose start fails at once on lane bad (its
// folder's name) and is the process target elsewhere.
type failingLane struct {
	targets.Target
	bad string
}

func (f failingLane) Start(ctx context.Context, env targets.Env) (targets.Instance, error) {
	if filepath.Base(env.Dir) == f.bad {
		return nil, errors.New("start failing: planted failure")
	}
	return f.Target.Start(ctx, env)
}

// TestPoolStartFailureStopsTheOthers: when one lane's start fails, the
// pool does not wait for the other lanes' slow starts: it cancels them,
// stops what started, leaves no process of the target running, and
// returns the failure that came first, naming its lane.
func TestPoolStartFailureStopsTheOthers(t *testing.T) {
	bin := buildFakeAdapter(t)
	marker := fmt.Sprintf("pool-start-failure-%d", time.Now().UnixNano())
	target, err := targets.NewProcess([]string{bin, "-ready-after", "1m", marker}, targets.WithReadyTimeout(30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = harness.StartPool(context.Background(), harness.PoolConfig{Lanes: 4, Target: failingLane{target, "lane-3"}, Dir: t.TempDir()})
	if err == nil || !strings.HasPrefix(err.Error(), "start lane 3: start failing: planted failure") {
		t.Fatalf("StartPool: %v, want the planted failure of lane 3", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("StartPool took %v: it waited for the other lanes' starts", took)
	}
	if left := withMarker(t, marker); len(left) > 0 {
		t.Errorf("processes of the target left running: %v", left)
	}
}

// withMarker returns the pids of the processes whose command line holds
// marker.
func withMarker(tb testing.TB, marker string) []string {
	tb.Helper()
	files, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil {
		tb.Fatal(err)
	}
	var pids []string
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil && strings.Contains(string(b), marker) {
			pids = append(pids, filepath.Base(filepath.Dir(f)))
		}
	}
	return pids
}
