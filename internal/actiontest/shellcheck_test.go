package actiontest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestShellcheck runs shellcheck at every severity (its default checks) on each
// script of the action and of the example workflow. It skips when
// shellcheck is not installed, unless TOOLCERT_REQUIRE_SHELLCHECK=1 (set
// by .ci/run where shellcheck is installed): then it fails.
func TestShellcheck(t *testing.T) {
	bin, err := exec.LookPath("shellcheck")
	if err != nil {
		if os.Getenv("TOOLCERT_REQUIRE_SHELLCHECK") == "1" {
			t.Fatal("TOOLCERT_REQUIRE_SHELLCHECK=1 but shellcheck is not installed")
		}
		t.Skip("shellcheck is not installed (apt-get install shellcheck): the scripts were not linted")
	}
	scripts := map[string]string{}
	for _, s := range loadAction(t).Runs.Steps {
		if s.Run != "" {
			scripts["action.yml: "+s.Name] = s.Run
		}
	}
	for job, j := range loadWorkflow(t).Jobs {
		for _, s := range j.Steps {
			if s.Run != "" {
				scripts["toolcert-example.yml: "+job+": "+s.Name] = s.Run
			}
		}
	}
	dir := t.TempDir()
	for name, text := range scripts {
		path := filepath.Join(dir, "step.sh")
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bin, "--shell=bash", "--severity=style", path).CombinedOutput()
		if err != nil {
			t.Errorf("%s: shellcheck: %v\n%s", name, err, out)
		}
	}
}
