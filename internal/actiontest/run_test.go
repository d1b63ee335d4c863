package actiontest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestActionWithToolcert builds toolcert from this checkout with the
// action's own build step, once, and a mutant adapter, then runs the
// action with them: its runs, the flags it passes, its signing path.
func TestActionWithToolcert(t *testing.T) {
	a := loadAction(t)
	bin := buildWithAction(t, a)
	mutant := filepath.Join(t.TempDir(), "toolcert-mutant")
	goBuild(t, mutant, "./cmd/toolcert-mutant")
	t.Run("runs", func(t *testing.T) { testRuns(t, a, bin, mutant) })
	t.Run("interrupted", func(t *testing.T) { testInterrupted(t, a, bin) })
	t.Run("flags", func(t *testing.T) { testFlags(t, a, bin) })
	t.Run("certify", func(t *testing.T) { testCertify(t, a, bin, mutant) })
}

// testRuns runs the whole action against the reference adapter and a
// mutant, and checks its outputs, the job summary, the upload and the
// job's exit code.
func testRuns(t *testing.T, a actionFile, bin, mutant string) {
	features := filepath.Join(repoRoot(t), "features", "duplicate_members.feature")
	cases := []struct {
		name    string
		inputs  map[string]string
		stale   bool   // an earlier run's report.md is in the report folder
		code    string // exit-code
		verdict string
		job     int    // the job's exit code
		summary string // what the job summary holds; "" when it must be empty
		log     string // what the steps printed
	}{{
		name:   "the reference passes",
		inputs: map[string]string{"features": features},
		code:   "0", verdict: "passed", summary: "**✅ PASSED**",
	}, {
		name:   "a mutant fails the job with toolcert's exit code",
		inputs: map[string]string{"features": features, "target-cmd": mutant + " --mutant duplicate-last-wins"},
		code:   "1", verdict: "failed", job: 1, summary: "**❌ FAILED**", log: "::error title=toolcert::",
	}, {
		name:   "fail-on-failure false keeps the job green and warns",
		inputs: map[string]string{"features": features, "target-cmd": mutant + " --mutant duplicate-last-wins", "fail-on-failure": "false"},
		code:   "1", verdict: "failed", summary: "**❌ FAILED**", log: "::warning title=toolcert::",
	}, {
		name:   "a target that does not start is a failed report, exit 2",
		inputs: map[string]string{"features": features, "target-cmd": "/bin/false"},
		code:   "2", verdict: "failed", job: 2, summary: "the target starts",
	}, {
		name:   "a usage error writes no report, and an earlier one is not shown",
		inputs: map[string]string{"features": filepath.Join(t.TempDir(), "missing.feature")},
		stale:  true,
		code:   "2", verdict: "error", job: 2, summary: "toolcert wrote no report (exit code 2)",
	}, {
		name:   "job-summary false writes no summary",
		inputs: map[string]string{"features": features, "job-summary": "false"},
		code:   "0", verdict: "passed",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newFakeRunner(t)
			r.built = bin
			tc.inputs["report-dir"] = "reports"
			reportDir := filepath.Join(r.workspace, "reports")
			if tc.stale {
				writeFile(t, filepath.Join(reportDir, "report.md"), "STALE REPORT\n", 0o644)
			}
			job := r.run(t, a, tc.inputs)
			want := map[string]string{"exit-code": tc.code, "verdict": tc.verdict, "report-dir": reportDir, "attestation": ""}
			for name, v := range want {
				if job.outputs[name] != v {
					t.Errorf("output %s = %q, want %q\n%s", name, job.outputs[name], v, job.log())
				}
			}
			if job.code != tc.job {
				t.Errorf("the job exits %d, want %d\n%s", job.code, tc.job, job.log())
			}
			checkSummary(t, job.summary, tc.summary, reportDir)
			if !strings.Contains(job.log(), tc.log) {
				t.Errorf("the log does not hold %q\n%s", tc.log, job.log())
			}
			if up := job.stepNamed(t, "Upload the reports"); !up.ran {
				t.Error("the reports are not uploaded")
			}
			checkStopCommands(t, job.stepNamed(t, "Run toolcert").log)
		})
	}
}

// interrupter runs $REAL_TOOLCERT with its arguments and sends it SIGTERM
// half a second later, as a cancelled job does.
const interrupter = `#!/usr/bin/env bash
if [ "$1" = version ]; then exec "$REAL_TOOLCERT" "$@"; fi
"$REAL_TOOLCERT" "$@" &
pid=$!
sleep 0.5
kill -TERM "$pid"
wait "$pid"
`

// testInterrupted interrupts the whole built-in run and checks that the
// action reads the verdict from the reports toolcert still writes, with
// results.json among them and without.
func testInterrupted(t *testing.T, a actionFile, bin string) {
	for _, format := range []string{"json,junit", "junit"} {
		r := newFakeRunner(t)
		r.built = filepath.Join(t.TempDir(), "toolcert")
		writeFile(t, r.built, interrupter, 0o755)
		r.env = []string{"REAL_TOOLCERT=" + bin}
		job := r.run(t, a, map[string]string{"args": "--concurrency=1", "format": format})
		if job.outputs["exit-code"] != "2" || job.outputs["verdict"] != "interrupted" || job.code != 2 {
			t.Errorf("format %s: outputs %v, job exit %d, want exit-code 2, verdict interrupted, job exit 2\n%s", format, job.outputs, job.code, job.log())
		}
		checkSummary(t, job.summary, "INTERRUPTED", job.outputs["report-dir"])
	}
}

// checkSummary checks the job summary: it holds want ("" when it must be
// empty) and, when the run wrote report.md, is that file.
func checkSummary(t *testing.T, summary, want, reportDir string) {
	t.Helper()
	if want == "" {
		if summary != "" {
			t.Errorf("job summary = %q, want none", summary)
		}
		return
	}
	if !strings.Contains(summary, want) || strings.Contains(summary, "STALE") {
		t.Errorf("job summary does not hold %q, or holds an earlier report:\n%s", want, summary)
	}
	if report, err := os.ReadFile(filepath.Join(reportDir, "report.md")); err == nil && string(report) != summary {
		t.Errorf("job summary is not report.md:\n%s", summary)
	}
}

// stopCommands matches toolcert's output as the run step wraps it: no
// workflow command is read between the two markers.
var stopCommands = regexp.MustCompile(`(?s)::stop-commands::([0-9a-f]{32})\n.*\n::([0-9a-f]{32})::\n`)

// checkStopCommands checks that the run step stops workflow commands
// around toolcert's output and resumes them with the same token.
func checkStopCommands(t *testing.T, log string) {
	t.Helper()
	m := stopCommands.FindStringSubmatch(log)
	if m == nil || m[1] != m[2] {
		t.Errorf("toolcert's output is not wrapped in ::stop-commands::TOKEN and ::TOKEN:::\n%s", log)
	}
}

// buildWithAction runs the action's build step alone, as a workflow with
// no version input does, and returns the toolcert it built.
func buildWithAction(t *testing.T, a actionFile) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH: the action's build step cannot run")
	}
	r := newFakeRunner(t)
	sr := r.runStep(t, a, "build", nil)
	bin := sr.outputs["bin"]
	if sr.code != 0 || !strings.HasPrefix(bin, r.temp+"/") {
		t.Fatalf("build step exits %d with bin %q, want 0 and a toolcert under RUNNER_TEMP\n%s", sr.code, bin, sr.log)
	}
	if !strings.Contains(sr.log, "toolcert ") {
		t.Errorf("build step does not print the version:\n%s", sr.log)
	}
	return bin
}

// goBuild builds the package pkg of this module into out.
func goBuild(t *testing.T, out, pkg string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = repoRoot(t)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
}

// writeFile writes text to path, making its folder.
func writeFile(tb testing.TB, path, text string, mode os.FileMode) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		tb.Fatal(err)
	}
}
