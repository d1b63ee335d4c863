package targets

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolcert/toolcert/protocol"
)

// TestProcessOrphansKilled kills a harness with SIGKILL while its adapter,
// a shell script, runs a child of its own: the parent-death signal ends the
// adapter but not the child, which does not inherit it. The first start of
// a process by the next harness kills that child, and leaves alone the
// processes of a harness that still runs.
//
// The stand-in harnesses name a pid space of the test's own (helperSpace),
// so that no other test binary that starts a process meanwhile sweeps
// their processes first.
func TestProcessOrphansKilled(t *testing.T) {
	script := wrapperScript(t, buildFakeAdapter(t))
	space := testSpace(t)
	t.Setenv(helperSpace, space)
	killed, words := startHarness(t, "process", script, "adapter")
	killedAdapter, orphan := adapterAndChild(t, words)
	_, words = startHarness(t, "process", script, "adapter")
	liveAdapter, liveChild := adapterAndChild(t, words)
	got := markerOf(t, orphan.pid)
	if want := fmt.Sprintf("pid=%d start=", killed.Process.Pid); !strings.HasPrefix(got, want) || !strings.HasSuffix(got, " space="+space) {
		t.Fatalf("the child's %s is %q, want it to start with %q and end with the space %q", protocol.VarOwner, got, want, space)
	}

	killHarness(t, killed)
	if !waitGone(killedAdapter, 5*time.Second) {
		t.Fatalf("the adapter %d still runs 5 s after its harness was killed", killedAdapter.pid)
	}
	time.Sleep(200 * time.Millisecond)
	if !running(orphan) {
		t.Fatalf("the child %d died with its harness: the test shows nothing", orphan.pid)
	}

	_, words = startHarness(t, "process", script, "adapter") // its first start sweeps
	adapterAndChild(t, words)
	if !waitGone(orphan, 5*time.Second) {
		t.Errorf("the child %d that the killed harness left still runs after the next harness started a process", orphan.pid)
	}
	if !running(liveAdapter) || !running(liveChild) {
		t.Errorf("the next harness killed the processes of a harness that runs: adapter %d running %v, its child %d running %v",
			liveAdapter.pid, running(liveAdapter), liveChild.pid, running(liveChild))
	}
}

// TestKillOrphans gives sleepers hand-written owner markers and checks
// which ones killOrphans kills. The markers name a pid space of the test's
// own, which no other test binary sweeps.
func TestKillOrphans(t *testing.T) {
	bin := buildFakeAdapter(t)
	space := testSpace(t)
	self, err := readStat(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	dead := deadProcess(t)
	marker := func(pid int, start, space string) string {
		return fmt.Sprintf("pid=%d start=%s run=0123456789abcdef space=%s", pid, start, space)
	}
	ticks := func(k procKey) string { return strconv.FormatUint(k.start, 10) }
	tests := []struct {
		name   string
		marker string
		killed bool
	}{
		{"a harness that no longer runs: killed", marker(dead.pid, ticks(dead), space), true},
		{"a harness whose pid another process took since: killed", marker(self.pid, ticks(self.procKey)+"1", space), true},
		{"a harness that runs (this test): kept", marker(self.pid, ticks(self.procKey), space), false},
		{"a harness whose start time is unknown and whose pid runs: kept", marker(self.pid, "", space), false},
		{"a harness of another pid space: kept", marker(dead.pid, ticks(dead), "linux another-boot pid:[1]"), false},
		{"a value that names no harness: kept", "pid=x start= run= space=" + space, false},
	}
	sleepers := make([]procKey, len(tests))
	for i, tt := range tests {
		sleepers[i] = startMarked(t, bin, tt.marker)
	}
	got := killOrphans(space)
	for i, tt := range tests {
		reported := false
		for _, d := range got {
			reported = reported || strings.HasPrefix(d, fmt.Sprintf("pid %d: ", sleepers[i].pid))
		}
		if reported != tt.killed {
			t.Errorf("%s: reported as killed %v, want %v (killOrphans() = %q)", tt.name, reported, tt.killed, got)
		}
		if tt.killed && !waitGone(sleepers[i], 5*time.Second) {
			t.Errorf("%s: still runs 5 s after killOrphans", tt.name)
		}
	}
	time.Sleep(200 * time.Millisecond) // for a SIGKILL that should not have been sent
	for i, tt := range tests {
		if !tt.killed && !running(sleepers[i]) {
			t.Errorf("%s: killed", tt.name)
		}
	}
}

// testSpace returns a pid space of tb's own: this process's, which a
// harness must know to sweep, and a suffix that no other harness's has.
func testSpace(tb testing.TB) string {
	tb.Helper()
	space := harnessOwner().space
	if space == "" {
		tb.Skip("this process's pid space is unknown")
	}
	return fmt.Sprintf("%s test-%d-%d", space, os.Getpid(), time.Now().UnixNano())
}

// wrapperScript writes a shell script that starts a sleeper of the fake
// adapter bin in the background, the way a wrapper starts the real server,
// then runs the fake adapter in its place, and returns its path.
func wrapperScript(tb testing.TB, bin string) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "wrapper.sh")
	text := fmt.Sprintf("#!/bin/sh\n%s -hostile-role sleeper >/dev/null &\nexec %s\n", quoteWord(bin), quoteWord(bin))
	if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
		tb.Fatal(err)
	}
	return path
}

// adapterAndChild returns the adapter that a stand-in harness named in
// words ("PID START") and the sleeper it started, both ended at the end of
// the test.
func adapterAndChild(tb testing.TB, words []string) (adapter, child procKey) {
	tb.Helper()
	pid, _ := strconv.Atoi(words[0])
	adapter = watchProcess(tb, pid)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		table, err := scanProcs()
		if err != nil {
			tb.Fatal(err)
		}
		for c, p := range table {
			if p.ppid == pid && strings.Contains(describe(c), "-hostile-role sleeper") {
				return adapter, watchProcess(tb, c)
			}
		}
	}
	tb.Fatalf("the adapter %d started no sleeper within 5 s", pid)
	return adapter, procKey{}
}

// markerOf returns the value of protocol.VarOwner in the environment of pid.
func markerOf(tb testing.TB, pid int) string {
	tb.Helper()
	raw, err := os.ReadFile(procPath(pid, "environ"))
	if err != nil {
		tb.Fatal(err)
	}
	for kv := range strings.SplitSeq(string(raw), "\x00") {
		if v, ok := strings.CutPrefix(kv, protocol.VarOwner+"="); ok {
			return v
		}
	}
	return ""
}

// startMarked starts a sleeper of the fake adapter bin with marker as its
// protocol.VarOwner, and returns it once it runs the sleeper's code (its
// environment is the sleeper's from then on). It is ended at the end of
// the test.
func startMarked(tb testing.TB, bin, marker string) procKey {
	tb.Helper()
	cmd := exec.Command(bin, "-hostile-role", "sleeper")
	cmd.Env = append(os.Environ(), protocol.VarOwner+"="+marker)
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	go func() { _ = cmd.Wait() }()
	k := watchProcess(tb, cmd.Process.Pid)
	if line, err := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
		tb.Fatalf("the sleeper is not ready: %q, %v", line, err)
	}
	return k
}

// deadProcess returns a process that has ended.
func deadProcess(tb testing.TB) procKey {
	tb.Helper()
	cmd := exec.Command("sh", "-c", "exit 0")
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	p, err := readStat(cmd.Process.Pid) // read before Wait reaps it
	_ = cmd.Wait()
	if err != nil {
		tb.Fatal(err)
	}
	return p.procKey
}

// running reports whether k runs, and is not only waiting to be reaped.
func running(k procKey) bool {
	p, err := readStat(k.pid)
	return err == nil && p.start == k.start && !p.dead()
}
