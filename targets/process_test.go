//go:build unix

package targets

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
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
