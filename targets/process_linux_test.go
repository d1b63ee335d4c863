package targets

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolcert/toolcert/targets/testdata/hostile"
)

// helperEnv makes this test binary a stand-in harness (TestHarnessHelper):
// its value names what it starts, helperTarget with what. helperSpace,
// when set, replaces the pid space the stand-in names as its owner's
// (harnessOwner), so that only stand-ins of the same space sweep what
// the others leave (killOrphans), not the test binaries that run
// meanwhile.
const (
	helperEnv    = "TARGETS_TEST_HARNESS"
	helperTarget = "TARGETS_TEST_HARNESS_TARGET"
	helperSpace  = "TARGETS_TEST_HARNESS_SPACE"
)

// TestHarnessHelper is not a test of its own: startHarness runs this test
// binary with it, as a harness that starts one target, says what it
// started on standard output and waits to be killed.
func TestHarnessHelper(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		return
	}
	if space := os.Getenv(helperSpace); space != "" {
		o := harnessOwner()
		o.space = space
		harnessOwner = func() owner { return o }
	}
	switch mode {
	case "process":
		helperProcess()
	case "container":
		helperContainer()
	}
	fmt.Println("error: unknown helper", mode)
	os.Exit(1)
}

// helperProcess starts the executable helperTarget names as a Process,
// from a goroutine locked to an OS thread that ends as soon as Start
// returns, the way any code in a harness may end a thread. It prints
// "adapter PID START" once the adapter has outlived that thread, and
// sleeps.
func helperProcess() {
	p, err := NewProcess([]string{os.Getenv(helperTarget)})
	if err != nil {
		helperFail(err)
	}
	var inst Instance
	tid := make(chan int, 1)
	started := make(chan error)
	start := func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		if syscall.Gettid() == os.Getpid() {
			// Go never ends the main thread: keep it, so that the next
			// goroutine runs on another.
			tid <- 0
			select {}
		}
		tid <- syscall.Gettid()
		var err error
		inst, err = p.Start(context.Background(), Env{})
		started <- err
	}
	go start()
	thread := <-tid
	if thread == 0 {
		go start()
		thread = <-tid
	}
	if err := <-started; err != nil {
		helperFail(err)
	}
	task := fmt.Sprintf("/proc/self/task/%d", thread)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(task); errors.Is(err, os.ErrNotExist) {
			break
		}
		if time.Now().After(deadline) {
			helperFail(errors.New("the locked thread did not end"))
		}
	}
	time.Sleep(200 * time.Millisecond) // for a parent-death signal to arrive
	if err := inst.Alive(context.Background()); err != nil {
		helperFail(fmt.Errorf("the adapter died with the thread that called Start: %w", err))
	}
	pi := inst.(*processInstance)
	fmt.Printf("adapter %d %d\n", pi.tree.root.pid, pi.tree.root.start)
	time.Sleep(time.Hour)
}

// helperFail prints err for startHarness and exits.
func helperFail(err error) {
	fmt.Println("error:", err)
	os.Exit(1)
}

// startHarness runs this test binary as a stand-in harness that starts
// target (see TestHarnessHelper), and returns it with the words of the
// line it printed after prefix. The harness is killed at the end of the
// test.
func startHarness(tb testing.TB, mode, target, prefix string) (*exec.Cmd, []string) {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHarnessHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, helperTarget+"="+target, "TESTCONTAINERS_RYUK_DISABLED=true")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if line := sc.Text(); strings.HasPrefix(line, prefix+" ") || strings.HasPrefix(line, "error:") {
				lines <- line
				return
			}
		}
		close(lines)
	}()
	select {
	case line, ok := <-lines:
		if !ok || strings.HasPrefix(line, "error:") {
			tb.Fatalf("the stand-in harness failed: %q", line)
		}
		return cmd, strings.Fields(line)[1:]
	case <-time.After(60 * time.Second):
		tb.Fatalf("the stand-in harness said nothing within 60 s")
	}
	return nil, nil
}

// killHarness kills the stand-in harness with SIGKILL, as a user or the OS
// may: it runs no code of its own after that.
func killHarness(tb testing.TB, cmd *exec.Cmd) {
	tb.Helper()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		tb.Fatalf("kill the harness: %v", err)
	}
	_ = cmd.Wait()
}

// TestProcessDiesWithHarness kills a harness with SIGKILL and checks that
// its adapter process dies too: the parent-death signal, sent to the
// adapter when the thread that started it ends, and that thread kept
// alive for as long as the adapter runs (the stand-in harness checks that
// ending the thread of the goroutine that called Start does not kill it).
func TestProcessDiesWithHarness(t *testing.T) {
	bin := buildFakeAdapter(t)
	harness, words := startHarness(t, "process", bin, "adapter")
	pid, _ := strconv.Atoi(words[0])
	start, _ := strconv.ParseUint(words[1], 10, 64)
	adapter := procKey{pid, start}
	t.Cleanup(func() {
		kill(adapter)
		waitGone(adapter, 5*time.Second)
	})
	if !adapter.alive() {
		t.Fatalf("the adapter %d is not running while its harness runs", pid)
	}
	killHarness(t, harness)
	if !waitGone(adapter, 5*time.Second) {
		t.Errorf("the adapter %d still runs 5 s after its harness was killed with SIGKILL", pid)
	}
}

func TestProcessLeftovers(t *testing.T) {
	bin := buildFakeAdapter(t)
	tests := []struct {
		name     string
		args     []string
		exit     bool // the adapter exits on its own before Stop
		leftover bool
	}{
		{"a child in the adapter's group that ignores SIGTERM dies with the group, no leftover", []string{"-spawn", hostile.Group}, false, false},
		{"a child in a session of its own outlives the group: killed and reported", []string{"-spawn", hostile.Setsid}, false, true},
		{"the orphan of a double fork, adopted by the harness: killed and reported", []string{"-spawn", hostile.DoubleFork}, false, true},
		{"a child left by an adapter that exited: found by the lane's environment", []string{"-spawn", hostile.Setsid}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inst, err := startProcess(t, append([]string{bin}, tt.args...), Env{UpstreamURL: "http://127.0.0.1:9"})
			if err != nil {
				t.Fatalf("Start: %v", err)
			}
			pid := spawnedPid(t, inst.URL())
			child := watchProcess(t, pid)
			if p, _ := readStat(pid); tt.args[1] == hostile.DoubleFork && p.ppid != os.Getpid() {
				t.Errorf("the orphan's parent is %d, want the harness %d (a child subreaper)", p.ppid, os.Getpid())
			}
			if tt.exit {
				_, _ = inst.probe.Get(inst.URL() + "/exit")
				<-inst.done
			}
			if err := inst.Stop(context.Background()); err != nil {
				t.Errorf("Stop: %v", err)
			}
			// A member of the group is sent SIGKILL with it; under load it
			// may take a moment to die after the leader is reaped.
			if !waitGone(child, 2*time.Second) {
				t.Errorf("process %d still runs 2 s after Stop", pid)
			}
			left := inst.Leftovers()
			want := fmt.Sprintf("pid %d: ", pid)
			switch {
			case tt.leftover && (len(left) != 1 || !strings.HasPrefix(left[0], want) || !strings.Contains(left[0], "-hostile-role sleeper")):
				t.Errorf("Leftovers() = %q, want one entry starting %q with the sleeper's command line", left, want)
			case !tt.leftover && len(left) != 0:
				t.Errorf("Leftovers() = %q, want none", left)
			}
		})
	}
}

// TestProcessLeftoversOfAnother checks that Stop kills no orphan of
// another instance: both are children of the harness, only the lane's
// environment tells them apart.
func TestProcessLeftoversOfAnother(t *testing.T) {
	bin := buildFakeAdapter(t)
	argv := []string{bin, "-spawn", hostile.DoubleFork}
	mine, err := startProcess(t, argv, Env{UpstreamURL: "http://127.0.0.1:9"})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	other, err := startProcess(t, argv, Env{UpstreamURL: "http://127.0.0.1:9"})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	myOrphan := watchProcess(t, spawnedPid(t, mine.URL()))
	otherOrphan := watchProcess(t, spawnedPid(t, other.URL()))
	if err := mine.Stop(context.Background()); err != nil {
		t.Errorf("Stop: %v", err)
	}
	if myOrphan.alive() || !otherOrphan.alive() {
		t.Errorf("after Stop of one instance: its orphan alive %v, the other's alive %v; want false, true", myOrphan.alive(), otherOrphan.alive())
	}
	if left := mine.Leftovers(); len(left) != 1 || !strings.HasPrefix(left[0], fmt.Sprintf("pid %d: ", myOrphan.pid)) {
		t.Errorf("Leftovers() = %q, want only the instance's own orphan %d", left, myOrphan.pid)
	}
}

func TestProcessExposed(t *testing.T) {
	bin := buildFakeAdapter(t)
	tests := []struct {
		name string
		args []string
		ipv6 bool
		// want is the start of the one entry Exposed returns, "" for none;
		// PORT stands for the port of the adapter's listen address. The
		// entry names the adapter's pid, or the spawned process's.
		want string
	}{
		{"the loopback address it was given", nil, false, ""},
		{"every IPv4 interface", []string{"-bind", "0.0.0.0"}, false, "tcp 0.0.0.0:PORT"},
		{"every IPv6 interface", []string{"-bind", "::"}, true, "tcp [::]:PORT"},
		{"a child in its group on every interface", []string{"-spawn", hostile.Group, "-spawn-listen", "0.0.0.0:0"}, false, "tcp 0.0.0.0:"},
		{"a child in a session of its own on every interface", []string{"-spawn", hostile.Setsid, "-spawn-listen", "0.0.0.0:0"}, false, "tcp 0.0.0.0:"},
		{"an orphan of a double fork on every interface", []string{"-spawn", hostile.DoubleFork, "-spawn-listen", "[::]:0"}, true, "tcp [::]:"},
		{"a child on loopback", []string{"-spawn", hostile.Setsid, "-spawn-listen", "127.0.0.1:0"}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.ipv6 {
				requireIPv6(t)
			}
			inst, err := startProcess(t, append([]string{bin}, tt.args...), Env{})
			if err != nil {
				t.Fatalf("Start: %v", err)
			}
			owner := inst.cmd.Process.Pid
			if slices.Contains(tt.args, "-spawn") {
				owner = spawnedPid(t, inst.URL())
				watchProcess(t, owner)
			}
			got, err := inst.Exposed(t.Context())
			if err != nil {
				t.Fatalf("Exposed: %v", err)
			}
			if tt.want == "" {
				if len(got) != 0 {
					t.Errorf("Exposed() = %q, want none", got)
				}
				return
			}
			_, port, _ := net.SplitHostPort(strings.TrimPrefix(inst.URL(), "http://"))
			want := everyInterface(strings.Replace(tt.want, "PORT", port, 1))
			pidPart := fmt.Sprintf(" (pid %d: ", owner)
			if len(got) != 1 || !want.MatchString(got[0]) || !strings.Contains(got[0], pidPart) {
				t.Errorf("Exposed() = %q, want one entry matching %s naming%s...)", got, want, pidPart)
			}
		})
	}
	t.Run("after Stop", func(t *testing.T) {
		inst, err := startProcess(t, []string{bin}, Env{})
		if err != nil {
			t.Fatalf("Start: %v", err)
		}
		_ = inst.Stop(t.Context())
		if _, err := inst.Exposed(t.Context()); !errors.Is(err, ErrStopped) {
			t.Errorf("Exposed after Stop: %v, want ErrStopped", err)
		}
	})
}

// everyInterface returns a pattern of an entry of Exposed that starts with
// prefix, where 0.0.0.0 may also be [::]: Go listens on "0.0.0.0:port"
// with one socket for IPv4 and IPv6 where it can.
func everyInterface(prefix string) *regexp.Regexp {
	quoted := regexp.QuoteMeta(prefix)
	return regexp.MustCompile("^" + strings.Replace(quoted, regexp.QuoteMeta("0.0.0.0:"), `(0\.0\.0\.0|\[::\]):`, 1))
}

// requireIPv6 skips the test where this host cannot listen on IPv6.
func requireIPv6(tb testing.TB) {
	tb.Helper()
	l, err := net.Listen("tcp6", "[::]:0")
	if err != nil {
		tb.Skipf("no IPv6 here: %v", err)
	}
	l.Close()
}

// TestProcessNotReadySaysWhereItListens: an adapter that never answers on
// the address it was given is said to listen elsewhere when it does, with
// the process that does, and the variable that gave it the address (as
// renamed); one that listens where it should but answers 503 is said to
// answer 503, with no word of where it listens.
func TestProcessNotReadySaysWhereItListens(t *testing.T) {
	bin := buildFakeAdapter(t)
	tests := []struct {
		name   string
		args   []string
		rename map[string]string
		want   string // a pattern of the error's first line; ADDR stands for the address it was given
		reject string // what the first line must not hold
	}{
		{
			name: "another port", args: []string{"-wrong-port"},
			want: `: target not ready after 1s: no 200 from GET http://ADDR/healthz \(the last probe: dial tcp ADDR: connect: connection refused\); ` +
				`it listens on 127\.0\.0\.1:\d+ \(pid \d+: \S*/fakeadapter -wrong-port\), not on ADDR \(TOOLCERT_LISTEN\)$`,
		},
		{
			name: "another port, the variable renamed", args: []string{"-wrong-port", "-listen-var", "FAKE_LISTEN"},
			rename: map[string]string{"TOOLCERT_LISTEN": "FAKE_LISTEN"},
			want:   `; it listens on 127\.0\.0\.1:\d+ \(pid \d+: .*\), not on ADDR \(FAKE_LISTEN\)$`,
		},
		{
			name: "its port, answering 503", args: []string{"-never-ready"},
			want:   `: target not ready after 1s: no 200 from GET http://ADDR/healthz \(the last probe: it answered 503 Service Unavailable\)$`,
			reject: "listens",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			listen, err := FreePort()
			if err != nil {
				t.Fatal(err)
			}
			_, err = startProcess(t, append([]string{bin}, tt.args...), Env{Listen: listen}, WithReadyTimeout(time.Second), WithRename(tt.rename))
			if !errors.Is(err, ErrNotReady) {
				t.Fatalf("Start: %v, want ErrNotReady", err)
			}
			first, _, _ := strings.Cut(err.Error(), "\n")
			want := regexp.MustCompile(strings.ReplaceAll(tt.want, "ADDR", regexp.QuoteMeta(listen)))
			if !want.MatchString(first) {
				t.Errorf("first line of the error:\n%s\nwant it to match %s", first, want)
			}
			if tt.reject != "" && strings.Contains(first, tt.reject) {
				t.Errorf("first line of the error holds %q:\n%s", tt.reject, first)
			}
		})
	}
}
