package actiontest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeToolcert records the arguments and environment it was run with, and
// what it found at --key, into $FAKE_DIR; it writes "{}" at --attestation,
// prints lines an adapter could make toolcert print that GitHub would read
// as workflow commands, and exits $FAKE_EXIT.
const fakeToolcert = `#!/usr/bin/env bash
set -eu
if [ "$1" = version ]; then echo "toolcert fake"; exit 0; fi
printf '%s\0' "$@" >"$FAKE_DIR/argv"
env >"$FAKE_DIR/env"
prev=""
for arg in "$@"; do
  case "$prev" in
    --key) printf '%s' "$arg" >"$FAKE_DIR/key-path"; stat -c %a "$arg" >"$FAKE_DIR/key-mode"; cat "$arg" >"$FAKE_DIR/key" ;;
    --attestation) echo '{}' >"$arg" ;;
  esac
  prev="$arg"
done
echo '::set-output name=verdict::passed'
echo '  ::error::planted by the adapter'
exit "${FAKE_EXIT:-0}"
`

// TestActionInputsAreData gives the run step inputs a shell would execute
// and a report folder with a newline in its name, and checks that each
// reaches toolcert as one argument, byte for byte, that nothing ran, and
// that the signing key reached toolcert as a 0600 file only, never in its
// environment, and was removed.
func TestActionInputsAreData(t *testing.T) {
	a := loadAction(t)
	r := newFakeRunner(t)
	fakeDir := t.TempDir()
	r.built = filepath.Join(fakeDir, "toolcert")
	writeFile(t, r.built, fakeToolcert, 0o755)
	r.env = []string{"FAKE_DIR=" + fakeDir, "FAKE_EXIT=1"}
	const key = "-----BEGIN PRIVATE KEY-----\nsecret $(touch pwned-key)\n-----END PRIVATE KEY-----"
	inputs := map[string]string{
		"target-cmd":  `./adapter --name "a b" $(touch pwned-1); touch pwned-2`,
		"features":    "my features/`touch pwned-3`.feature",
		"args":        "--seed=42\n  --tags=@x && ~@y  \n\n--quiet\n$(touch pwned-4)",
		"format":      "json",
		"report-dir":  "out\nverdict=passed",
		"signing-key": key,
	}
	job := r.run(t, a, inputs)

	reportDir := filepath.Join(r.workspace, "out\nverdict=passed")
	attestation := filepath.Join(reportDir, "attestation.intoto.json")
	keyPath := readFile(t, filepath.Join(fakeDir, "key-path"))
	want := []string{"certify", "--out", reportDir, "--format", "json,markdown",
		"--target-cmd", inputs["target-cmd"], "--features", inputs["features"],
		"--seed=42", "--tags=@x && ~@y", "--quiet", "$(touch pwned-4)",
		"--key", keyPath, "--attestation", attestation}
	got := strings.Split(strings.TrimSuffix(readFile(t, filepath.Join(fakeDir, "argv")), "\x00"), "\x00")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("toolcert's arguments (-want +got):\n%s\n%s", diff, job.log())
	}
	if pwned, _ := filepath.Glob(filepath.Join(r.workspace, "pwned*")); len(pwned) > 0 {
		t.Errorf("an input ran as shell: %q", pwned)
	}
	checkKey(t, fakeDir, keyPath, key)
	wantOut := map[string]string{"exit-code": "1", "verdict": "failed", "report-dir": reportDir, "attestation": attestation}
	if diff := cmp.Diff(wantOut, job.outputs); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
	checkStopCommands(t, job.stepNamed(t, "Run toolcert").log)
}

// checkKey checks what the fake toolcert found at --key and in its
// environment, and that the key file is gone.
func checkKey(t *testing.T, fakeDir, keyPath, key string) {
	t.Helper()
	if mode := strings.TrimSpace(readFile(t, filepath.Join(fakeDir, "key-mode"))); mode != "600" {
		t.Errorf("key file mode %s, want 600", mode)
	}
	if got := readFile(t, filepath.Join(fakeDir, "key")); got != key+"\n" {
		t.Errorf("key file holds %q, want the input and a newline", got)
	}
	if env, err := os.ReadFile(filepath.Join(fakeDir, "env")); err != nil || bytes.Contains(env, []byte("secret")) {
		t.Errorf("the key is in toolcert's environment, which every adapter under test inherits (read error %v)", err)
	}
	if _, err := os.Stat(keyPath); !os.IsNotExist(err) {
		t.Errorf("key file %s left behind after the step (stat: %v)", keyPath, err)
	}
}

// readFile returns the file's content.
func readFile(tb testing.TB, path string) string {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}
