//go:build unix

package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
)

// hostileAuditEnv, set in the environment of this test binary, makes it
// serve the reference adapter with a hostile audit log, by mode:
//
//   - fifo: the audit log is a named pipe (its events go elsewhere);
//   - zero: the audit log is a symbolic link to /dev/zero;
//   - garbage: a line that is not JSON precedes each call's event;
//   - endless: a line of 5 MiB without a newline precedes the first event;
//   - ghost: the answers carry request ids that no event has;
//   - silent: no event reaches the audit log;
//   - none: the reference as it is.
//
// The process writes its pid into the folder auditPIDsEnv names.
const (
	hostileAuditEnv = "TOOLCERT_TEST_HOSTILE_AUDIT"
	auditPIDsEnv    = "TOOLCERT_TEST_AUDIT_PIDS"
)

// init serves a hostile adapter instead of running the tests when this
// binary is started as one (TestMain, in crash_test.go, serves the
// others).
func init() {
	if mode := os.Getenv(hostileAuditEnv); mode != "" {
		os.Exit(serveHostileAudit(mode))
	}
}

// serveHostileAudit serves the reference adapter from the TOOLCERT_*
// environment, its audit log made hostile by mode.
func serveHostileAudit(mode string) int {
	if err := os.WriteFile(filepath.Join(os.Getenv(auditPIDsEnv), strconv.Itoa(os.Getpid())), nil, 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	path := os.Getenv("TOOLCERT_AUDIT_FILE")
	if err := prepareAudit(mode, path); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	cfg, err := reference.ConfigFromEnv(os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	a, err := reference.New(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ln, err := net.Listen("tcp", a.Config().Listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := http.Serve(ln, hostileAudit(mode, path, a)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// prepareAudit puts the hostile file at the audit log's path, and sends
// the reference's events elsewhere where the mode needs it.
func prepareAudit(mode, path string) error {
	elsewhere := func() error { return os.Setenv("TOOLCERT_AUDIT_FILE", path+".elsewhere") }
	switch mode {
	case "fifo":
		if err := elsewhere(); err != nil {
			return err
		}
		return syscall.Mkfifo(path, 0o600)
	case "zero":
		if err := elsewhere(); err != nil {
			return err
		}
		return os.Symlink("/dev/zero", path)
	case "silent":
		return elsewhere()
	}
	return nil
}

// hostileAudit wraps the reference's handler: it writes garbage into the
// audit log before each call, or rewrites the request id of each answer.
func hostileAudit(mode, path string, next http.Handler) http.Handler {
	var calls atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/v1/tools/") {
			next.ServeHTTP(w, r)
			return
		}
		n, h := calls.Add(1), next
		switch {
		case mode == "garbage":
			appendTo(path, "this is not an audit event\n")
		case mode == "endless" && n == 1:
			appendTo(path, strings.Repeat("x", 5<<20))
		case mode == "ghost":
			h = ghostIDs(next, n)
		}
		h.ServeHTTP(w, r)
	})
}

func appendTo(path, s string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.WriteString(s)
}

// ghostIDs serves next's answer with its request_id replaced by one no
// audit event carries.
func ghostIDs(next http.Handler, n int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		var env map[string]json.RawMessage
		if json.Unmarshal(body, &env) == nil && env["request_id"] != nil {
			env["request_id"] = json.RawMessage(fmt.Sprintf(`"req.ghost%06d"`, n))
			body, _ = json.Marshal(env)
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body)
	})
}

// auditFeature is scenarios calls the same accepted call and check its
// audit event.
func auditFeature(scenarios int) fstest.MapFS {
	var b strings.Builder
	b.WriteString("Feature: audit\n")
	for i := range scenarios {
		fmt.Fprintf(&b, `
  Scenario: call %d
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved.json"
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the audit records gate "none" and reason "ok" for that request
`, i+1)
	}
	return fstest.MapFS{"audit.feature": {Data: []byte(b.String())}}
}

// hostileRun runs scenarios of auditFeature against this test binary
// serving mode, on one lane, and returns the result, the error and how
// long the run took. It checks that no adapter process is left.
func hostileRun(t *testing.T, ctx context.Context, mode string, scenarios int) (*reports.Result, time.Duration, error) {
	t.Helper()
	pids := t.TempDir()
	target, err := targets.NewProcess([]string{os.Args[0]}, targets.WithExtraEnv(map[string]string{hostileAuditEnv: mode, auditPIDsEnv: pids}))
	if err != nil {
		t.Fatal(err)
	}
	type outcome struct {
		res *reports.Result
		err error
	}
	done := make(chan outcome, 1)
	start := time.Now()
	go func() {
		res, err := Run(ctx, Config{Features: auditFeature(scenarios), Fixtures: toolcert.Fixtures(), Target: target,
			Profile: targets.DefaultProfile(), Concurrency: 1, WorkDir: t.TempDir()})
		done <- outcome{res, err}
	}()
	var o outcome
	select {
	case o = <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("mode %s: the run did not end within 60s", mode)
	}
	took := time.Since(start)
	noProcessLeft(t, pids)
	return o.res, took, o.err
}

// noProcessLeft checks that every adapter process that wrote its pid into
// dir has ended.
func noProcessLeft(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		t.Fatalf("no adapter process recorded its pid: %v", err)
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("adapter process %d is left behind (kill 0: %v)", pid, err)
		}
	}
}

// TestHostileAuditLogs: an adapter process whose audit log is a named
// pipe, a link to /dev/zero, garbage or a line without end fails each
// audit step with audit evidence naming the log and the problem, in
// bounded time, and leaves no process behind; the same process with an
// honest log passes.
func TestHostileAuditLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("starts adapter processes")
	}
	tests := []struct {
		mode string
		// want is in the evidence of every failed scenario; none: the run
		// passes.
		want []string
		// failed is how many scenarios fail, the first ones.
		failed int
	}{
		{"none", nil, 0},
		{"fifo", []string{"is a named pipe, not a regular file: not read"}, 3},
		{"zero", []string{"is a symbolic link to a character device, not a regular file: not read"}, 3},
		{"garbage", []string{"has a line that is not a JSON object (it does not start with {) at offset ", ", line 1"}, 3},
		// The line comes once, before the first call's event: the next
		// calls' events come after it.
		{"endless", []string{"has a line longer than 4 MiB at offset 0, line 1: not read"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			const scenarios = 3
			res, took, err := hostileRun(t, context.Background(), tt.mode, scenarios)
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			if took > 20*time.Second {
				t.Errorf("the run took %v", took)
			}
			if res.Summary.Failed != tt.failed || res.Summary.Passed != scenarios-tt.failed {
				t.Errorf("%d scenarios failed and %d passed, want %d and %d", res.Summary.Failed, res.Summary.Passed, tt.failed, scenarios-tt.failed)
			}
			for _, sc := range res.Scenarios[:min(tt.failed, len(res.Scenarios))] {
				checkEvidence(t, sc, append([]string{"the audit log "}, tt.want...)...)
			}
		})
	}
}

// checkEvidence checks that sc failed, that the first line of its error
// (what the console prints) and an audit evidence say each of want.
func checkEvidence(t *testing.T, sc reports.Scenario, want ...string) {
	t.Helper()
	if sc.Status != reports.Failed {
		t.Errorf("%s: status %s, want failed", sc.Name, sc.Status)
		return
	}
	first, _, _ := strings.Cut(sc.Error, "\n")
	var audit *reports.Evidence
	for i, e := range sc.Evidence {
		if e.Kind == reports.EvidenceAudit {
			audit = &sc.Evidence[i]
		}
	}
	if audit == nil {
		t.Errorf("%s: no audit evidence in %+v", sc.Name, sc.Evidence)
		return
	}
	for _, w := range want {
		if !strings.Contains(first, w) || !strings.Contains(audit.Message, w) {
			t.Errorf("%s: error %q and evidence %q, want both to say %q", sc.Name, first, audit.Message, w)
		}
	}
}

// TestAdapterWithoutItsEventsCannotStretchTheRun: an adapter whose
// answers carry request ids no audit event has, or that writes no event
// at all, fails each audit step, and the run waits the grace at most once
// per lane, not once per call.
func TestAdapterWithoutItsEventsCannotStretchTheRun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts adapter processes")
	}
	const scenarios = 6 // at 2s per call, 12s
	tests := []struct {
		mode    string
		want    []string
		maxTook time.Duration
	}{
		{"ghost", []string{`has no event for request_id "req.ghost`, "it holds 1 event(s) of other request ids there; not waited for: the log holds an event of request_id"},
			5 * time.Second},
		{"silent", []string{`has no event for request_id "req.`}, 2*time.Second + 5*time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			res, took, err := hostileRun(t, context.Background(), tt.mode, scenarios)
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			if took > tt.maxTook {
				t.Errorf("the run of %d scenarios took %v, want at most %v", scenarios, took, tt.maxTook)
			}
			if res.Summary.Failed != scenarios {
				t.Errorf("%d of %d scenarios failed", res.Summary.Failed, scenarios)
			}
			for _, sc := range res.Scenarios {
				checkEvidence(t, sc, tt.want...)
			}
			if tt.mode == "silent" {
				checkEvidence(t, res.Scenarios[0], "; waited 2s")
				checkEvidence(t, res.Scenarios[scenarios-1], "not waited for: this lane's earlier calls have spent the 2s")
			}
		})
	}
}

// TestInterruptedDuringAnAuditWait: a run interrupted while it waits for
// an audit event ends at once, with the interruption, and stops its
// adapter.
func TestInterruptedDuringAnAuditWait(t *testing.T) {
	if testing.Short() {
		t.Skip("starts adapter processes")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var cancelled atomic.Int64
	time.AfterFunc(time.Second, func() { cancelled.Store(time.Now().UnixNano()); cancel() })
	_, _, err := hostileRun(t, ctx, "silent", 3)
	if !errors.Is(err, ErrInterrupted) {
		t.Errorf("run: %v, want ErrInterrupted", err)
	}
	if at := cancelled.Load(); at == 0 || time.Since(time.Unix(0, at)) > 3*time.Second {
		t.Errorf("the run ended %v after it was interrupted", time.Since(time.Unix(0, at)))
	}
}
