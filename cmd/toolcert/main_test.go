package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
)

// runCLI calls run as main would and returns the exit code and output.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// buildToolcert builds the toolcert binary into a temporary folder and
// returns its path.
func buildToolcert(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "toolcert")
	build := exec.Command("go", "build", "-o", bin, "github.com/toolcert/toolcert/cmd/toolcert")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build toolcert: %v\n%s", err, out)
	}
	return bin
}

func TestRunDefaultPassesAndWritesReports(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, "run", "--quiet", "--out", out, "--seed", "7")
	if code != exitPass {
		t.Fatalf("run exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	var res struct {
		Seed    uint64 `json:"seed"`
		Summary struct {
			Scenarios, Passed, Failed, Skipped, Cases int
			NotApplicable                             int `json:"not_applicable"`
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("results.json: %v", err)
	}
	if res.Seed != 7 || res.Summary.Scenarios == 0 || res.Summary.Passed+res.Summary.NotApplicable != res.Summary.Scenarios || res.Summary.NotApplicable > 3 {
		t.Errorf("results.json = %+v, want seed 7 and every scenario passed but the 3 of MCP servers", res)
	}
	x, err := os.ReadFile(filepath.Join(out, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Tests int `xml:"tests,attr"`
	}
	if err := xml.Unmarshal(x, &suites); err != nil {
		t.Fatalf("junit.xml: %v", err)
	}
	if want := res.Summary.Scenarios + res.Summary.Cases; suites.Tests != want {
		t.Errorf("junit.xml has %d tests, want %d (every scenario and every generated case)", suites.Tests, want)
	}
}

// TestRunWritesEveryFormat: --format all writes one file per format the
// reports package knows, each non-empty.
func TestRunWritesEveryFormat(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, "run", "--quiet", "--out", out, "--format", "all", "--tags", "@transport && ~@slow")
	if code != exitPass {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, name := range reports.FormatNames() {
		file := reports.Formats()[name].File
		st, err := os.Stat(filepath.Join(out, file))
		if err != nil || st.Size() == 0 {
			t.Errorf("format %s: %s missing or empty (%v)", name, file, err)
		}
		if !strings.Contains(stdout, "wrote "+filepath.Join(out, file)) {
			t.Errorf("the summary does not name %s", file)
		}
	}
}

// TestShardsMerge: the shards of a run, merged, report what the whole run
// reports; a shard of another seed is refused.
func TestShardsMerge(t *testing.T) {
	dir := t.TempDir()
	common := []string{"run", "--quiet", "--seed", "5", "--tags", "@transport && ~@slow"}
	var files []string
	for _, shard := range []string{"1/2", "2/2"} {
		out := filepath.Join(dir, strings.ReplaceAll(shard, "/", "-"))
		if code, stdout, stderr := runCLI(t, append(common, "--shard", shard, "--out", out)...); code != exitPass {
			t.Fatalf("shard %s: exit %d\nstdout:\n%s\nstderr:\n%s", shard, code, stdout, stderr)
		}
		files = append(files, filepath.Join(out, "results.json"))
	}
	_, whole, _ := runCLI(t, append(common, "--out", filepath.Join(dir, "whole"))...)
	code, merged, stderr := runCLI(t, append([]string{"merge", "--out", filepath.Join(dir, "merged")}, files...)...)
	if code != exitPass {
		t.Fatalf("merge: exit %d\nstdout:\n%s\nstderr:\n%s", code, merged, stderr)
	}
	if got, want := summaryLine(merged), summaryLine(whole); got != want {
		t.Errorf("merged summary %q, whole run's %q", got, want)
	}
	other := filepath.Join(dir, "other")
	runCLI(t, "run", "--quiet", "--seed", "6", "--tags", "@transport && ~@slow", "--shard", "1/2", "--out", other)
	if code, _, _ := runCLI(t, "merge", "--out", filepath.Join(dir, "x"), files[1], filepath.Join(other, "results.json")); code != exitConfig {
		t.Errorf("merging shards of two seeds: exit %d, want %d", code, exitConfig)
	}
}

// summaryLine returns the scenario and leak counts of a run's summary
// (request counts and time vary between runs).
func summaryLine(stdout string) string {
	for _, line := range strings.Split(stdout, "\n") {
		if i := strings.Index(line, " canary leaks"); i > 0 && strings.Contains(line, " scenarios: ") {
			return line[:i]
		}
	}
	return ""
}

func TestExitCodes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"no command", nil, exitConfig},
		{"unknown command", []string{"frobnicate"}, exitConfig},
		{"unknown flag", []string{"run", "--nope"}, exitConfig},
		{"stray argument", []string{"run", "extra"}, exitConfig},
		{"two targets", []string{"run", "--target-cmd", "x", "--target-url", "http://127.0.0.1:1"}, exitConfig},
		{"image and command", []string{"run", "--target-image", "my-adapter:dev", "--target-cmd", "x"}, exitConfig},
		{"image and url", []string{"run", "--target-image", "my-adapter:dev", "--target-url", "http://127.0.0.1:1"}, exitConfig},
		{"url without upstream", []string{"run", "--target-url", "http://127.0.0.1:1"}, exitConfig},
		{"non-loopback upstream", []string{"run", "--target-url", "http://127.0.0.1:1", "--upstream-listen", "10.0.0.1:80"}, exitConfig},
		{"command substitution", []string{"run", "--target-cmd", "adapter $(whoami)"}, exitConfig},
		{"missing target binary", []string{"run", "--target-cmd", "/nonexistent/adapter", "--out", "OUT"}, exitConfig},
		{"no scenario selected", []string{"run", "--tags", "@no-such-tag", "--out", "OUT"}, exitConfig},
		{"zero lanes", []string{"run", "--concurrency", "0"}, exitConfig},
		{"help", []string{"help", "run"}, exitPass},
		{"version", []string{"version"}, exitPass},
		{"replay without body", []string{"replay", "--tool", "review_status"}, exitConfig},
		{"missing baseline", []string{"run", "--baseline", "/nonexistent/baseline.json"}, exitConfig},
		{"unknown format", []string{"run", "--format", "json,pdf"}, exitConfig},
		{"no format", []string{"run", "--format", ","}, exitConfig},
		{"bad shard", []string{"run", "--shard", "3/2"}, exitConfig},
		{"bad ready timeout", []string{"run", "--ready-timeout", "soon"}, exitConfig},
		{"missing config", []string{"run", "--config", "/nonexistent/toolcert.yaml"}, exitConfig},
		{"merge nothing", []string{"merge"}, exitConfig},
		{"merge a missing file", []string{"merge", "/nonexistent/results.json"}, exitConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := make([]string, len(tt.args))
			for i, a := range tt.args {
				args[i] = strings.ReplaceAll(a, "OUT", t.TempDir())
			}
			if code, stdout, stderr := runCLI(t, args...); code != tt.want {
				t.Errorf("toolcert %q exit %d, want %d\nstdout:\n%s\nstderr:\n%s", args, code, tt.want, stdout, stderr)
			}
		})
	}
}

// TestRunCatchesMutantBinary is the acceptance check of --target-cmd: a
// mutant built as a separate binary makes the run exit 1 and the summary
// names the scenarios that caught it.
func TestRunCatchesMutantBinary(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "toolcert-mutant")
	build := exec.Command("go", "build", "-o", bin, "github.com/toolcert/toolcert/cmd/toolcert-mutant")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build mutant: %v\n%s", err, out)
	}
	code, stdout, stderr := runCLI(t, "run", "--quiet", "--out", t.TempDir(),
		"--target-cmd", bin+" --mutant duplicate-last-wins")
	if code != exitFail {
		t.Fatalf("run against the mutant exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"failed  features/duplicate_members.feature: a plain duplicate member is rejected at the parse gate", "canary leaks"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}

	// The same failures as a baseline: a known failure passes the run, and
	// the reference, which passes what the baseline lists, fails it.
	baseline := filepath.Join(t.TempDir(), "baseline.json")
	feature := filepath.Join("..", "..", "features", "duplicate_members.feature")
	mutantRun := []string{"run", "--quiet", "--out", t.TempDir(), "--features", feature, "--target-cmd", bin + " --mutant duplicate-last-wins"}
	if code, stdout, stderr := runCLI(t, append(mutantRun, "--write-baseline", baseline)...); code != exitFail {
		t.Fatalf("writing the baseline: exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if code, stdout, stderr := runCLI(t, append(mutantRun, "--baseline", baseline)...); code != exitPass || !strings.Contains(stdout, "expected failure") {
		t.Errorf("the mutant with its own baseline: exit %d, want 0 and expected failures\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	code, stdout, _ = runCLI(t, "run", "--quiet", "--out", t.TempDir(), "--features", feature, "--baseline", baseline)
	if code != exitFail || !strings.Contains(stdout, "UNEXPECTED PASS") {
		t.Errorf("the reference with the mutant's baseline: exit %d, want 1 and unexpected passes:\n%s", code, stdout)
	}

	body := filepath.Join(t.TempDir(), "dup.json")
	capture := `{"change_id": "CR-1042", "decision": "rejected", "reviewed_by": "{{canary:r}}", "decision": "approved"}`
	if err := os.WriteFile(body, []byte(capture), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ = runCLI(t, "replay", "--tool", "review_status", "--args", `{"change_id": "CR-1042"}`, "--body", body,
		"--target-cmd", bin+" --mutant duplicate-last-wins")
	if code != exitFail || !strings.Contains(stdout, `"verdict": "leak"`) {
		t.Errorf("replay through the mutant exit %d, want 1 and a leak verdict:\n%s", code, stdout)
	}
}

func TestReplayReportsLeakVerdict(t *testing.T) {
	body := filepath.Join(t.TempDir(), "captured.json")
	capture := `{"change_id": "CR-1042", "decision": "approved", "reviewed_by": "alice", "admin_override": "{{canary:override}}"}`
	if err := os.WriteFile(body, []byte(capture), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "replay", "--tool", "review_status", "--args", `{"change_id": "CR-1042"}`, "--body", body)
	if code != exitPass {
		t.Fatalf("replay exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	var res struct {
		Agent struct {
			Body string `json:"body"`
		} `json:"agent"`
		Audit   []map[string]any `json:"audit"`
		Verdict string           `json:"verdict"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("replay output is not JSON: %v\n%s", err, stdout)
	}
	if res.Verdict != "no leak" || !strings.Contains(res.Agent.Body, "INVALID_RESPONSE") || len(res.Audit) != 1 || res.Audit[0]["gate"] != "schema" {
		t.Errorf("replay = %+v, want no leak, INVALID_RESPONSE and one schema audit event", res)
	}
}

// TestRunAgainstRunningAdapter drives an adapter the harness did not start
// (--target-url), wired to the mock's fixed address, with its audit log.
func TestRunAgainstRunningAdapter(t *testing.T) {
	listen, err := targets.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	upstream, err := targets.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	audit, policy := filepath.Join(dir, "audit.jsonl"), filepath.Join(dir, "policy.json")
	raw, err := fs.ReadFile(toolcert.Fixtures(), "policy.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(policy, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := reference.DefaultConfig()
	cfg.Listen, cfg.UpstreamURL, cfg.AuditFile, cfg.PolicyFile = listen, "http://"+upstream, audit, policy
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- reference.Serve(ctx, cfg) }()
	t.Cleanup(func() { cancel(); <-done })

	code, stdout, stderr := runCLI(t, "run", "--quiet", "--out", t.TempDir(),
		"--target-url", "http://"+listen, "--upstream-listen", upstream, "--audit-file", audit)
	if code != exitPass {
		t.Fatalf("run --target-url exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
