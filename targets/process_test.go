//go:build unix

package targets

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolcert/toolcert/protocol"
)

// buildFakeAdapter compiles testdata/fakeadapter into a temporary folder
// and returns the binary's path.
func buildFakeAdapter(tb testing.TB) string {
	tb.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		tb.Fatalf("find the go command: %v", err)
	}
	bin := filepath.Join(tb.TempDir(), "fakeadapter")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, goBin, "build", "-o", bin, "./testdata/fakeadapter").CombinedOutput()
	if err != nil {
		tb.Fatalf("build fakeadapter: %v\n%s", err, out)
	}
	return bin
}

// startProcess starts a Process target and stops it at the end of the test.
func startProcess(tb testing.TB, argv []string, env Env, opts ...ProcessOption) (*processInstance, error) {
	tb.Helper()
	p, err := NewProcess(argv, opts...)
	if err != nil {
		tb.Fatalf("NewProcess: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	inst, err := p.Start(ctx, env)
	if err != nil {
		return nil, err
	}
	tb.Cleanup(func() {
		if err := inst.Stop(context.Background()); err != nil {
			tb.Errorf("Stop: %v", err)
		}
	})
	return inst.(*processInstance), nil
}

// getEnv returns the fake adapter's environment, one NAME=value a line.
func getEnv(tb testing.TB, base string) []string {
	tb.Helper()
	client := &http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get(base + "/env")
	if err != nil {
		tb.Fatalf("GET /env: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		tb.Fatalf("read /env: %v", err)
	}
	return strings.Split(string(body), "\n")
}

func TestProcess(t *testing.T) {
	bin := buildFakeAdapter(t)
	t.Run("ready with env", func(t *testing.T) { testProcessReady(t, bin) })
	t.Run("renamed env", func(t *testing.T) { testProcessRenamed(t, bin) })
	t.Run("crash at start", func(t *testing.T) { testProcessCrash(t, bin) })
	t.Run("never ready", func(t *testing.T) { testProcessNeverReady(t, bin) })
	t.Run("ignores SIGTERM", func(t *testing.T) { testProcessKill(t, bin) })
	t.Run("exits while running", func(t *testing.T) { testProcessExits(t, bin) })
	t.Run("fails its health check while running", func(t *testing.T) { testProcessSickens(t, bin) })
	t.Run("missing executable", func(t *testing.T) {
		_, err := startProcess(t, []string{filepath.Join(t.TempDir(), "missing")}, Env{})
		if err == nil || !strings.Contains(err.Error(), "missing") {
			t.Errorf("Start: %v, want an error naming the executable", err)
		}
	})
}

func testProcessReady(t *testing.T, bin string) {
	t.Setenv("TOOLCERT_POLICY_FILE", "/inherited/policy.json")
	t.Setenv(protocol.VarOwner, "inherited")
	t.Setenv("FAKE_INHERITED", "yes")
	env := Env{
		UpstreamURL: "http://127.0.0.1:9",
		AuditFile:   "/tmp/audit.jsonl",
		Extra:       map[string]string{"TOOLCERT_MAX_BYTES": "10", protocol.VarOwner: "from the lane"},
	}
	extra := map[string]string{"FAKE_EXTRA": "1", protocol.VarOwner: "extra"}
	inst, err := startProcess(t, []string{bin}, env, WithExtraEnv(extra))
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	if err := inst.Alive(t.Context()); err != nil {
		t.Errorf("Alive: %v", err)
	}
	if !strings.HasPrefix(inst.URL(), "http://127.0.0.1:") {
		t.Errorf("URL() = %q, want a loopback base URL", inst.URL())
	}
	vars := getEnv(t, inst.URL())
	for _, want := range []string{
		"TOOLCERT_UPSTREAM_URL=http://127.0.0.1:9",
		"TOOLCERT_LISTEN=" + strings.TrimPrefix(inst.URL(), "http://"),
		"TOOLCERT_AUDIT_FILE=/tmp/audit.jsonl",
		"TOOLCERT_MAX_BYTES=10",
		"FAKE_EXTRA=1",
		"FAKE_INHERITED=yes",
	} {
		if !slices.Contains(vars, want) {
			t.Errorf("adapter env lacks %q; got %q", want, vars)
		}
	}
	for _, v := range vars {
		if strings.HasPrefix(v, "TOOLCERT_POLICY_FILE=") {
			t.Errorf("adapter env has the harness's own %q", v)
		}
	}
	checkOwner(t, vars)
	if logs := inst.Logs(); !strings.Contains(logs, "fakeadapter: starting") {
		t.Errorf("Logs() = %q, want the adapter's output", logs)
	}
	if err := inst.Stop(t.Context()); err != nil {
		t.Errorf("Stop: %v", err)
	}
	if err := inst.Alive(t.Context()); !errors.Is(err, ErrStopped) {
		t.Errorf("Alive after Stop: %v, want ErrStopped", err)
	}
}

func testProcessRenamed(t *testing.T, bin string) {
	rename := map[string]string{
		"TOOLCERT_LISTEN":       "FAKE_ADDR",
		"TOOLCERT_UPSTREAM_URL": "FAKE_UPSTREAM",
		"TOOLCERT_AUDIT_FILE":   "",
		protocol.VarOwner:       "FAKE_OWNER", // never renamed
	}
	env := Env{UpstreamURL: "http://127.0.0.1:9", AuditFile: "/tmp/audit.jsonl"}
	inst, err := startProcess(t, []string{bin, "-listen-var", "FAKE_ADDR"}, env, WithRename(rename))
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	vars := getEnv(t, inst.URL())
	if !slices.Contains(vars, "FAKE_UPSTREAM=http://127.0.0.1:9") {
		t.Errorf("adapter env lacks FAKE_UPSTREAM; got %q", vars)
	}
	for _, v := range vars {
		if strings.HasPrefix(v, "TOOLCERT_") && !strings.HasPrefix(v, protocol.VarOwner+"=") || strings.HasPrefix(v, "FAKE_OWNER=") {
			t.Errorf("adapter env has %q, want it renamed or dropped", v)
		}
	}
	checkOwner(t, vars)
}

// checkOwner checks that the environment vars holds one protocol.VarOwner,
// naming this process.
func checkOwner(tb testing.TB, vars []string) {
	tb.Helper()
	var got []string
	for _, v := range vars {
		if strings.HasPrefix(v, protocol.VarOwner+"=") {
			got = append(got, v)
		}
	}
	want := fmt.Sprintf("%s=pid=%d start=", protocol.VarOwner, os.Getpid())
	if len(got) != 1 || !strings.HasPrefix(got[0], want) {
		tb.Errorf("adapter env has %q, want one entry starting with %q", got, want)
	}
}

func testProcessCrash(t *testing.T, bin string) {
	_, err := startProcess(t, []string{bin, "-crash"}, Env{})
	var exit *ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("Start: %v, want an *ExitError", err)
	}
	if exit.ExitCode != 3 || !strings.Contains(exit.Tail, "crashing on purpose") {
		t.Errorf("ExitError = %+v, want exit code 3 and the output tail", exit)
	}
	for _, want := range []string{"exit status 3", "crashing on purpose"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func testProcessNeverReady(t *testing.T, bin string) {
	_, err := startProcess(t, []string{bin, "-never-ready"}, Env{}, WithReadyTimeout(500*time.Millisecond))
	if !errors.Is(err, ErrNotReady) {
		t.Fatalf("Start: %v, want ErrNotReady", err)
	}
	// How far the process got in 500 ms depends on the machine's load; the
	// error always tells the output tail or its absence.
	if msg := err.Error(); !strings.Contains(msg, "last output:") && !strings.Contains(msg, "no output") {
		t.Errorf("error %q does not report the output tail", msg)
	}
}

func testProcessKill(t *testing.T, bin string) {
	inst, err := startProcess(t, []string{bin, "-ignore-term"}, Env{}, WithStopGrace(100*time.Millisecond))
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	start := time.Now()
	if err := inst.Stop(t.Context()); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("Stop took %s, want it bounded", took)
	}
	ws, ok := inst.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Errorf("process state %v, want killed by SIGKILL", inst.cmd.ProcessState)
	}
}

func testProcessExits(t *testing.T, bin string) {
	inst, err := startProcess(t, []string{bin}, Env{})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	client := &http.Client{Timeout: 5 * time.Second}
	if resp, err := client.Get(inst.URL() + "/exit"); err == nil {
		resp.Body.Close()
	}
	select {
	case <-inst.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the process did not exit")
	}
	err = inst.Alive(t.Context())
	var exit *ExitError
	if !errors.As(err, &exit) || exit.ExitCode != 4 || !strings.Contains(exit.Tail, "exiting on request") {
		t.Errorf("Alive: %v, want an *ExitError with code 4 and the output tail", err)
	}
}

// TestProcessStartFailureSaysWhy: the error of an adapter that exits
// before it is ready says on its first line what failed, in the adapter's
// own words (a Go panic's message and frame, a failed listen), and then
// quotes the start of its output as well as its end.
func TestProcessStartFailureSaysWhy(t *testing.T) {
	bin := buildFakeAdapter(t)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	tests := []struct {
		name      string
		args      []string
		env       Env
		wantFirst *regexp.Regexp // the error's first line
		wantText  []string       // in the whole error
	}{
		{
			name: "a Go panic after much output", args: []string{"-noise", "300", "-panic"},
			wantFirst: regexp.MustCompile(`^start process .*: target process exited \(exit status 2\); it printed: panic: fakeadapter: boom \(in main\.explode\(\.\.\.\) at /\S+/main\.go:\d+\)$`),
			wantText:  []string{"\nits output began:\nfakeadapter: starting\nfakeadapter: noise line 1\n", "\nlast output:\n", "goroutine 1 [running]:"},
		},
		{
			name: "its address in use", env: Env{Listen: busy.Addr().String()},
			wantFirst: regexp.MustCompile(`^start process .*: target process exited \(exit status 1\); it printed: fakeadapter: listen tcp ` +
				regexp.QuoteMeta(busy.Addr().String()) + `: bind: address already in use$`),
			wantText: []string{"\nlast output:\nfakeadapter: starting\n"},
		},
		{
			name: "a last line that says nothing", args: []string{"-crash"},
			wantFirst: regexp.MustCompile(`^start process .*: target process exited \(exit status 3\); its last line: fakeadapter: crashing on purpose$`),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := startProcess(t, append([]string{bin}, tt.args...), tt.env)
			var exit *ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("Start: %v, want an *ExitError", err)
			}
			msg := err.Error()
			if first, _, _ := strings.Cut(msg, "\n"); !tt.wantFirst.MatchString(first) {
				t.Errorf("first line of the error:\n%s\nwant it to match %s", first, tt.wantFirst)
			}
			for _, want := range tt.wantText {
				if !strings.Contains(msg, want) {
					t.Errorf("the error lacks %q:\n%s", want, msg)
				}
			}
		})
	}
}

// testProcessSickens: an adapter that still runs but fails its health
// check is said to run, with what the check asked, for how long, and
// what it got: not as one that exited.
func testProcessSickens(t *testing.T, bin string) {
	inst, err := startProcess(t, []string{bin}, Env{})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	client := &http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get(inst.URL() + "/sicken")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	err = inst.Alive(ctx)
	var health *HealthError
	var exit *ExitError
	if !errors.As(err, &health) || errors.As(err, &exit) || health.Status != "503 Service Unavailable" {
		t.Fatalf("Alive: %v, want a *HealthError of status 503 and no *ExitError", err)
	}
	want := " still runs, but gave no 200 to GET " + inst.URL() + "/healthz within 1s: it answered 503 Service Unavailable"
	if !strings.HasSuffix(err.Error(), want) {
		t.Errorf("Alive: %q, want it to end %q", err, want)
	}
}
