package runner

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
)

// shellAdapter returns a target that runs script with /bin/sh as its
// adapter, with marker as its last argument so that a test can find the
// process left behind (a script that waits must not exec away the shell).
func shellAdapter(t *testing.T, script, marker string, opts ...targets.ProcessOption) targets.Target {
	t.Helper()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh to run an adapter script")
	}
	tgt, err := targets.NewProcess([]string{"/bin/sh", "-c", script, marker}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tgt
}

// leftBehind returns the pids of the processes whose command line holds
// marker; it skips the test where /proc does not list processes.
func leftBehind(t *testing.T, marker string) []string {
	t.Helper()
	files, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil || len(files) == 0 {
		t.Skip("no /proc to look for processes left behind")
	}
	var pids []string
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil && bytes.Contains(b, []byte(marker)) {
			pids = append(pids, filepath.Base(filepath.Dir(f)))
		}
	}
	return pids
}

// TestTargetStartFailureHasAResult: an adapter that prints terminal
// escapes and a fake verdict, then exits, makes Run return ErrTargetStart
// (not ErrConfig) with a result: one failed scenario, "the target starts",
// whose error and evidence hold the exit status and the output's tail, and
// a progress line that shows the escapes inert.
func TestTargetStartFailureHasAResult(t *testing.T) {
	const marker = "toolcert-start-failure-exit"
	tgt := shellAdapter(t, `printf '\033[2J\033]0;pwned\007\n'; echo 'all scenarios passed'; exit 3`, marker)
	var progress bytes.Buffer
	res, err := Run(context.Background(), Config{
		Features: fstest.MapFS{"one.feature": {Data: []byte(oneScenario)}},
		Fixtures: toolcert.Fixtures(), Target: tgt, Progress: &progress, Seed: 5,
	})
	if !errors.Is(err, ErrTargetStart) || errors.Is(err, ErrConfig) {
		t.Fatalf("Run: %v, want ErrTargetStart and not ErrConfig", err)
	}
	var exit *targets.ExitError
	if !errors.As(err, &exit) || exit.ExitCode != 3 {
		t.Errorf("Run: %v, want the *targets.ExitError of exit status 3 in its chain", err)
	}
	if res == nil {
		t.Fatal("Run returned no result for a target that did not start")
	}
	if res.Summary.Scenarios != 1 || res.Summary.Failed != 1 || res.Seed != 5 || res.Target != tgt.String() {
		t.Errorf("result %+v, want one failed scenario, seed 5, the target named", res.Summary)
	}
	if v, _ := res.Summary.Verdict(); v != reports.VerdictFailed {
		t.Errorf("verdict %s, want %s", v, reports.VerdictFailed)
	}
	sc := res.Scenarios[0]
	if sc.Feature != "target" || sc.Name != "the target starts" || sc.Status != reports.Failed || len(sc.Steps) != 1 {
		t.Errorf("scenario %+v, want target: the target starts, failed, with its step", sc)
	}
	if len(sc.Evidence) != 1 || sc.Evidence[0].Kind != reports.EvidenceTarget {
		t.Fatalf("evidence %+v, want one of kind target", sc.Evidence)
	}
	for _, want := range []string{"exit status 3", "\x1b[2J\x1b]0;pwned\x07", "all scenarios passed"} {
		if !strings.Contains(sc.Evidence[0].Message, want) || !strings.Contains(sc.Error, want) {
			t.Errorf("the error and evidence lack %q:\n%s", want, sc.Evidence[0].Message)
		}
	}
	if p := progress.String(); !strings.HasPrefix(p, "FAIL target: the target starts") || strings.Contains(p, "\x1b") {
		t.Errorf("progress %q, want a FAIL line and no raw escape", p)
	}
	if left := leftBehind(t, marker); len(left) > 0 {
		t.Errorf("adapter processes left behind: %v", left)
	}
}

// TestTargetNeverReady: an adapter that never answers /healthz is a start
// failure with a result too, and is stopped.
func TestTargetNeverReady(t *testing.T) {
	const marker = "toolcert-start-failure-never-ready"
	tgt := shellAdapter(t, `echo 'listening, honestly'; while :; do sleep 0.1; done`, marker, targets.WithReadyTimeout(500*time.Millisecond))
	res, err := Run(context.Background(), Config{
		Features: fstest.MapFS{"one.feature": {Data: []byte(oneScenario)}},
		Fixtures: toolcert.Fixtures(), Target: tgt, Concurrency: 2,
	})
	if !errors.Is(err, ErrTargetStart) || !errors.Is(err, targets.ErrNotReady) {
		t.Fatalf("Run: %v, want ErrTargetStart and targets.ErrNotReady", err)
	}
	if res == nil || len(res.Scenarios) != 1 || !strings.Contains(res.Scenarios[0].Evidence[0].Message, "listening, honestly") {
		t.Fatalf("result %+v, want the start failure with the output's tail", res)
	}
	if left := leftBehind(t, marker); len(left) > 0 {
		t.Errorf("adapter processes left behind: %v", left)
	}
}

// TestStartInterrupted: a run whose context ends while the target starts
// is interrupted, not a start failure: the result has no scenario.
func TestStartInterrupted(t *testing.T) {
	const marker = "toolcert-start-interrupted"
	tgt := shellAdapter(t, `while :; do sleep 0.1; done`, marker)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	res, err := Run(ctx, Config{
		Features: fstest.MapFS{"one.feature": {Data: []byte(oneScenario)}},
		Fixtures: toolcert.Fixtures(), Target: tgt,
	})
	if !errors.Is(err, ErrInterrupted) || errors.Is(err, ErrTargetStart) {
		t.Fatalf("Run: %v, want ErrInterrupted and not ErrTargetStart", err)
	}
	if res == nil || !res.Summary.Interrupted || len(res.Scenarios) != 0 {
		t.Errorf("result %+v, want interrupted with no scenario", res)
	}
	if left := leftBehind(t, marker); len(left) > 0 {
		t.Errorf("adapter processes left behind: %v", left)
	}
}

// TestStartConfigErrorIsNoTargetFailure: a mock upstream that cannot
// listen where the user said is the user's configuration error, not the
// target's: ErrConfig and no result.
func TestStartConfigErrorIsNoTargetFailure(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	tgt, err := targets.NewURL("http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{
		Features: fstest.MapFS{"one.feature": {Data: []byte(oneScenario)}},
		Fixtures: toolcert.Fixtures(), Target: tgt, UpstreamListen: busy.Addr().String(),
	})
	if !errors.Is(err, ErrConfig) || errors.Is(err, ErrTargetStart) || res != nil {
		t.Errorf("Run = %v, %v; want no result and ErrConfig, not ErrTargetStart", res, err)
	}
}
