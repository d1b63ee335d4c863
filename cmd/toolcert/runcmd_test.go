package main

import (
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolcert/toolcert/internal/runconfig"
)

// TestRunFlagsAreKeys: every flag of run is a config file's key of the
// same name, but --config and the flags that choose a target (the file's
// target mapping), and every run key is a flag.
func TestRunFlagsAreKeys(t *testing.T) {
	fs, _, _ := runFlagSet(io.Discard)
	notKeys := []string{"config", "target-cmd", "target-url", "target-image", "target-mcp-cmd", "target-mcp-url"}
	var flags []string
	fs.VisitAll(func(f *flag.Flag) {
		flags = append(flags, f.Name)
		if !slices.Contains(notKeys, f.Name) && !slices.Contains(runconfig.Keys(), f.Name) {
			t.Errorf("run's flag --%s is no key of a config file", f.Name)
		}
	})
	for _, k := range runconfig.Keys() {
		if !slices.Contains(flags, k) {
			t.Errorf("the config file's key %s is no flag of run", k)
		}
	}
}

// TestRunHelpListsConfig: toolcert help run names --config and
// --ready-timeout.
func TestRunHelpListsConfig(t *testing.T) {
	code, _, stderr := runCLI(t, "help", "run")
	if code != exitPass {
		t.Fatalf("help run: exit %d", code)
	}
	for _, want := range []string{"-config FILE", "docs/config.md", "-ready-timeout DURATION"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("help run lacks %q:\n%s", want, stderr)
		}
	}
}

// writeConfig writes text as toolcert.yaml in a new folder and returns
// its path.
func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "toolcert.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRunConfigErrors: a bad config file is exit code 2 with a message
// that names the file, the line and the key, before anything starts.
func TestRunConfigErrors(t *testing.T) {
	tests := []struct {
		name, text string
		args       []string
		want       string
	}{
		{"unknown key", "target:\n  kind: mcp-stdio\n  comand: x\n", nil, `toolcert.yaml:3: target.comand: unknown key (did you mean "command"?)`},
		{"wrong type", "seed: 1\nconcurrency: four\n", nil, `toolcert.yaml:2: concurrency: wrong type: want an integer, got the string "four"`},
		{"missing features", "features: nope\n", nil, "toolcert.yaml:1: features: stat "},
		{"a flag at fault", "tags: x\n", []string{"--features", "/nonexistent/f"}, "toolcert: --features: stat /nonexistent/f"},
		{"two target flags", "", []string{"--target-cmd", "x", "--target-mcp-cmd", "y"}, "--target-cmd and --target-mcp-cmd exclude each other"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeConfig(t, tt.text)
			args := append([]string{"run", "--quiet", "--out", t.TempDir(), "--config", path}, tt.args...)
			code, stdout, stderr := runCLI(t, args...)
			if code != exitConfig || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, want %d and %q\nstdout:\n%s\nstderr:\n%s", code, exitConfig, tt.want, stdout, stderr)
			}
		})
	}
	if code, _, stderr := runCLI(t, "run", "--config", filepath.Join(t.TempDir(), "none.yaml")); code != exitConfig || !strings.Contains(stderr, "none.yaml") {
		t.Errorf("a missing config: exit %d, want %d and the file named\n%s", code, exitConfig, stderr)
	}
}

// TestRunConfigMCPStdio is the acceptance check of --config: a file that
// starts `toolcert adapter --mcp stdio` per lane, with a tool map, passes
// the duplicate member scenarios; its relative out is under its own
// folder; a flag replaces its seed. The same file mapping review_status
// onto a tool the server lacks passes less: the map reaches the agent.
func TestRunConfigMCPStdio(t *testing.T) {
	bin := buildToolcert(t)
	feature, err := filepath.Abs(filepath.Join("..", "..", "features", "duplicate_members.feature"))
	if err != nil {
		t.Fatal(err)
	}
	text := `target:
  kind: mcp-stdio
  command: [` + bin + `, adapter, --mcp, stdio]
  env:
    TOOLCERT_TEST_LANE: "{{.Dir}}"
tools:
  review_status:
    name: review_status
    arguments: '{"change_id": {{json .change_id}}}'
    result: text
    code: /error/code
    retryable: /error/retryable
features: ` + feature + `
out: report
seed: 3
concurrency: 2
ready-timeout: 20s
format: [json]
`
	config := writeConfig(t, text)
	code, stdout, stderr := runCLI(t, "run", "--config", config, "--seed", "9", "--quiet")
	if code != exitPass {
		t.Fatalf("run --config: exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	res := readResults(t, filepath.Join(filepath.Dir(config), "report", "results.json"))
	if res.Seed != 9 || res.Summary.Scenarios == 0 || res.Summary.Passed != res.Summary.Scenarios || !strings.HasPrefix(res.Target, "mcp-stdio ") {
		t.Errorf("results.json = %+v, want seed 9 (the flag's), an mcp-stdio target, every scenario passed", res)
	}

	unknown := writeConfig(t, strings.Replace(text, "name: review_status", "name: no_such_tool", 1))
	if code, _, stderr := runCLI(t, "run", "--config", unknown, "--quiet"); code != exitConfig || !strings.Contains(stderr, `names "no_such_tool", which the server does not list`) {
		t.Errorf("mapped onto a tool the server lacks: exit %d, stderr %q; want 2 naming the tool", code, stderr)
	}
}

// results is what the tests read of a results.json.
type results struct {
	Seed    uint64 `json:"seed"`
	Target  string `json:"target"`
	Summary struct{ Scenarios, Passed int }
}

// readResults reads the results.json at path.
func readResults(t *testing.T, path string) results {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read results: %v", err)
	}
	var res results
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return res
}
