//go:build linux

package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/toolcert/toolcert/adapters/reference"
)

// serveHostileReference serves the reference adapter from the TOOLCERT_*
// environment the hostile way mode names:
//   - audit-fifo: its audit log is a named pipe (the events go to stderr);
//   - listen-all: it listens on every interface;
//   - setsid-child: it first starts a copy of this binary in a session of
//     its own (mode sleep), which outlives it;
//   - sleep: sleeps a minute (the child of setsid-child);
//   - signal-parent: sends SIGTERM to its parent, toolcert, at its first
//     call, then answers it.
func serveHostileReference(mode string) int {
	if mode == "sleep" {
		time.Sleep(time.Minute)
		return 0
	}
	cfg, err := reference.ConfigFromEnv(os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	addr := cfg.Listen
	switch mode {
	case "audit-fifo":
		_ = os.Remove(cfg.AuditFile)
		if err := syscall.Mkfifo(cfg.AuditFile, 0o600); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		cfg.AuditFile = ""
	case "listen-all":
		_, port, _ := net.SplitHostPort(addr)
		addr = net.JoinHostPort("0.0.0.0", port)
	case "setsid-child":
		child := exec.Command(os.Args[0], hostileArg, "sleep", os.Args[3])
		child.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	a, err := reference.New(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var h http.Handler = a
	if mode == "signal-parent" {
		var once sync.Once
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				once.Do(func() { _ = syscall.Kill(os.Getppid(), syscall.SIGTERM) })
			}
			a.ServeHTTP(w, r)
		})
	}
	if err := http.ListenAndServe(addr, h); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// auditFeature passes against the reference: its audit step reads the
// adapter's log.
const auditFeature = `Feature: audited
  Scenario: the audit records the call
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved.json"
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the audit records gate "none" and reason "ok" for that request
`

// TestHostileTargets: an adapter whose audit log is a named pipe, one
// that listens on every interface and one whose child escapes into a
// session of its own each end the run with exit 1, the reports written,
// and evidence that names what it did; none hangs, and no process of it
// is left (hostileRun checks).
func TestHostileTargets(t *testing.T) {
	feature := filepath.Join(t.TempDir(), "audited.feature")
	if err := os.WriteFile(feature, []byte(auditFeature), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		mode, scenario string
		want           []string
	}{
		{"audit-fifo", "the audit records the call", []string{"is a named pipe, not a regular file: not read"}},
		{"listen-all", "the target listens on loopback only", []string{"the target listened beyond loopback, reachable from the network during certification: tcp "}},
		{"setsid-child", "the target leaves no process running", []string{"running after it was stopped; toolcert killed and named each: pid ", hostileArg + " sleep"}},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			code, stdout, stderr, out := hostileRun(t, tt.mode, "--features", feature)
			if code != exitFail {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitFail, stdout, stderr)
			}
			if took := time.Since(start); took > 30*time.Second {
				t.Errorf("the run took %v", took)
			}
			ev := evidenceOf(t, readResult(t, out), tt.scenario)
			for _, want := range tt.want {
				if !strings.Contains(ev, want) {
					t.Errorf("the evidence lacks %q:\n%s", want, ev)
				}
			}
			for _, f := range []string{"junit.xml", "results.sarif", "report.html"} {
				if b, err := os.ReadFile(filepath.Join(out, f)); err != nil || !strings.Contains(string(b), tt.scenario) {
					t.Errorf("%s does not name %q (%v)", f, tt.scenario, err)
				}
			}
		})
	}
}

// TestInterruptedByTarget: an adapter that sends SIGTERM to toolcert
// interrupts the run (exit 2, the reports written and marked interrupted),
// and what toolcert says of it does not pass it off as its operator's: it
// names the signal and says that it cannot tell who sent it, an adapter
// included. The run is toolcert's own binary, as only main handles
// signals.
func TestInterruptedByTarget(t *testing.T) {
	bin := buildToolcert(t)
	feature := filepath.Join(t.TempDir(), "audited.feature")
	if err := os.WriteFile(feature, []byte(auditFeature), 0o600); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	marker := fmt.Sprintf("tok-signal-%d", time.Now().UnixNano())
	cmd := exec.Command(bin, "run", "--quiet", "--target-cmd", fmt.Sprintf("'%s' %s signal-parent %s", os.Args[0], hostileArg, marker),
		"--features", feature, "--out", out, "--seed", "1")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitConfig {
		t.Fatalf("toolcert: %v, want exit %d\nstdout:\n%s\nstderr:\n%s", err, exitConfig, &stdout, &stderr)
	}
	want := "toolcert: run interrupted: SIGTERM received; toolcert cannot tell which process sent it: its operator, a CI runner's cancel, " +
		"or any process of its user, an adapter run as a process included"
	if !strings.Contains(stderr.String(), want) {
		t.Errorf("standard error lacks %q:\n%s", want, &stderr)
	}
	if res := readResult(t, out); !res.Summary.Interrupted {
		t.Errorf("results.json: summary %+v, want interrupted", res.Summary)
	}
	if left := processesWith(t, marker); len(left) > 0 {
		t.Errorf("adapter processes left behind: %v", left)
	}
}
