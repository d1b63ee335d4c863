package actiontest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeGo records each go command it is given, its arguments bracketed,
// into $FAKE_DIR/go-calls; it answers install by writing a fake toolcert
// into $GOBIN, and passes every other command to $REAL_GO.
const fakeGo = `#!/usr/bin/env bash
set -eu
printf '[%s]' "$@" >>"$FAKE_DIR/go-calls"
echo >>"$FAKE_DIR/go-calls"
if [ "$1" = install ]; then
  echo "GOBIN=$GOBIN" >>"$FAKE_DIR/go-calls"
  printf '#!/bin/sh\necho "toolcert fake"\n' >"$GOBIN/toolcert"
  chmod +x "$GOBIN/toolcert"
  exit 0
fi
exec "$REAL_GO" "$@"
`

// TestActionBuildsVersion runs the build step with a version input: it
// installs MODULE/cmd/toolcert@VERSION (the module read from the action's
// go.mod) into a folder of its own, and the version is one argument, never
// shell.
func TestActionBuildsVersion(t *testing.T) {
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH: the action's build step cannot run")
	}
	a := loadAction(t)
	r := newFakeRunner(t)
	fakeDir := t.TempDir()
	writeFile(t, filepath.Join(fakeDir, "go"), fakeGo, 0o755)
	r.path = fakeDir + string(os.PathListSeparator) + os.Getenv("PATH")
	r.env = []string{"FAKE_DIR=" + fakeDir, "REAL_GO=" + realGo}
	const version = "v1.2.3 $(touch pwned)"
	sr := r.runStep(t, a, "build", map[string]string{"version": version})
	if sr.code != 0 {
		t.Fatalf("build step exits %d\n%s", sr.code, sr.log)
	}
	module := strings.TrimPrefix(strings.SplitN(readFile(t, filepath.Join(repoRoot(t), "go.mod")), "\n", 2)[0], "module ")
	bin := sr.outputs["bin"]
	calls := readFile(t, filepath.Join(fakeDir, "go-calls"))
	for _, want := range []string{
		"[install][" + module + "/cmd/toolcert@" + version + "]\n",
		"GOBIN=" + filepath.Dir(bin) + "\n",
	} {
		if !strings.Contains(calls, want) {
			t.Errorf("go was not run with %q; it was run with:\n%s", want, calls)
		}
	}
	if !strings.Contains(sr.log, "toolcert fake") {
		t.Errorf("build step did not run the toolcert it installed (%s):\n%s", bin, sr.log)
	}
	for _, dir := range []string{filepath.Dir(bin), r.workspace} {
		if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
			t.Errorf("the version ran as shell: %s/pwned exists", dir)
		}
	}
}
