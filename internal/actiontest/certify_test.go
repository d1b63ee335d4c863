package actiontest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// testCertify runs the action with a signing key made by toolcert keygen,
// against the reference and a mutant, and checks that the attestation it
// names verifies with the public key exactly when the run passed.
func testCertify(t *testing.T, a actionFile, bin, mutant string) {
	if err := exec.Command(bin, "help", "certify").Run(); err != nil {
		t.Fatalf("toolcert help certify: %v: the action's signing path needs the certify command", err)
	}
	keys := t.TempDir()
	if out, err := exec.Command(bin, "keygen", "--out", keys).CombinedOutput(); err != nil {
		t.Fatalf("toolcert keygen: %v\n%s", err, out)
	}
	key := readFile(t, filepath.Join(keys, "toolcert.key"))
	features := filepath.Join(repoRoot(t), "features", "duplicate_members.feature")
	for _, tc := range []struct {
		name, target, code, verdict string
		verify                      int // toolcert verify's exit code
	}{
		{"the reference is attested PASSED", "", "0", "passed", 0},
		{"a mutant is attested FAILED, and that does not verify", mutant + " --mutant duplicate-last-wins", "1", "failed", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newFakeRunner(t)
			r.built = bin
			job := r.run(t, a, map[string]string{"features": features, "target-cmd": tc.target,
				"signing-key": key, "attestation": "signed/run.intoto.json", "fail-on-failure": "false"})
			att := filepath.Join(r.workspace, "signed", "run.intoto.json")
			if job.outputs["exit-code"] != tc.code || job.outputs["verdict"] != tc.verdict || job.outputs["attestation"] != att {
				t.Fatalf("outputs %v, want exit-code %s, verdict %s, attestation %s\n%s", job.outputs, tc.code, tc.verdict, att, job.log())
			}
			cmd := exec.Command(bin, "verify", att, "--pubkey", filepath.Join(keys, "toolcert.pub"))
			out, _ := cmd.CombinedOutput()
			if cmd.ProcessState.ExitCode() != tc.verify {
				t.Errorf("toolcert verify exits %d, want %d\n%s", cmd.ProcessState.ExitCode(), tc.verify, out)
			}
			if left, _ := filepath.Glob(filepath.Join(r.temp, "toolcert-key.*")); len(left) > 0 {
				t.Errorf("key files left in RUNNER_TEMP: %q", left)
			}
			if _, err := os.Stat(filepath.Join(job.outputs["report-dir"], "report.md")); err != nil {
				t.Errorf("certify wrote no report.md: %v", err)
			}
		})
	}
}
