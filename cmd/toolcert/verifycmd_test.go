package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// verifyCode runs toolcert verify and returns its exit code and output.
func verifyCode(t *testing.T, args ...string) (int, string) {
	t.Helper()
	code, stdout, stderr := runCLI(t, append([]string{"verify"}, args...)...)
	return code, stdout + stderr
}

// tamperEveryByte flips one bit of each byte of the envelope at path in
// turn and runs toolcert verify on it: none may exit 0.
func tamperEveryByte(t *testing.T, path, pub string) {
	t.Helper()
	env, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	flipped := filepath.Join(t.TempDir(), "flipped.json")
	for i := range env {
		b := append([]byte(nil), env...)
		b[i] ^= 1 << (i % 8)
		if err := os.WriteFile(flipped, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if code, out := verifyCode(t, flipped, "--pubkey", pub); code == exitPass {
			t.Fatalf("the envelope with bit %d of byte %d flipped verifies:\n%s", i%8, i, out)
		}
	}
	t.Logf("%d bytes flipped, none verified", len(env))
}

// TestVerifyNotAnEnvelope: a file that is no envelope fails verification
// with a reason, quoted printable.
func TestVerifyNotAnEnvelope(t *testing.T) {
	_, pub := keygen(t)
	name := filepath.Join(t.TempDir(), "evil\x1b[2J.json")
	if err := os.WriteFile(name, []byte(`{"payloadType": "x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := verifyCode(t, name, "--pubkey", pub)
	if code != exitFail || !strings.Contains(out, "NOT VERIFIED") || !strings.Contains(out, "no signature") || strings.Contains(out, "\x1b") {
		t.Errorf("verify of a non-envelope: exit %d, want 1 with the reason, printable:\n%q", code, out)
	}
}
