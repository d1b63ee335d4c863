package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// keygen writes a key pair into a temporary folder with toolcert keygen
// and returns the paths of the private and public keys.
func keygen(t *testing.T) (key, pub string) {
	t.Helper()
	dir := t.TempDir()
	if code, stdout, stderr := runCLI(t, "keygen", "--out", dir); code != exitPass {
		t.Fatalf("keygen exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	return filepath.Join(dir, "toolcert.key"), filepath.Join(dir, "toolcert.pub")
}

func TestKeygen(t *testing.T) {
	key, pub := keygen(t)
	st, err := os.Stat(key)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("the private key has mode %v, want 0600", st.Mode().Perm())
	}
	for file, head := range map[string]string{key: "-----BEGIN PRIVATE KEY-----", pub: "-----BEGIN PUBLIC KEY-----"} {
		if b, _ := os.ReadFile(file); !strings.HasPrefix(string(b), head) {
			t.Errorf("%s does not start with %s:\n%s", file, head, b)
		}
	}
	before, _ := os.ReadFile(key)
	code, _, stderr := runCLI(t, "keygen", "--out", filepath.Dir(key))
	if code != exitConfig || !strings.Contains(stderr, "exists") {
		t.Errorf("keygen over existing keys: exit %d, want 2 and a word that they exist:\n%s", code, stderr)
	}
	if after, _ := os.ReadFile(key); string(after) != string(before) {
		t.Error("keygen overwrote the private key")
	}
}

// TestAttestationHelp: each command's help says its flags, exit codes and
// an example, and exits 0.
func TestAttestationHelp(t *testing.T) {
	for cmd, flags := range map[string][]string{
		"keygen":  {"-out"},
		"certify": {"-key", "-attestation", "-target-cmd", "-baseline", "-upstream-version"},
		"verify":  {"-pubkey", "-subject", "-upstream-version", "-require", "-forbid-baseline"},
		"matrix":  {"-pubkey", "-format", "-out"},
	} {
		t.Run(cmd, func(t *testing.T) {
			code, _, stderr := runCLI(t, cmd, "-h")
			if code != exitPass {
				t.Errorf("%s -h exit %d, want 0", cmd, code)
			}
			for _, want := range append([]string{"Usage: toolcert " + cmd, "Exit codes:", "Example:"}, flags...) {
				if !strings.Contains(stderr, want) {
					t.Errorf("%s -h lacks %q:\n%s", cmd, want, stderr)
				}
			}
		})
	}
	code, stdout, _ := runCLI(t, "help")
	for _, cmd := range []string{"keygen", "certify", "verify", "matrix"} {
		if code != exitPass || !strings.Contains(stdout, "toolcert "+cmd) {
			t.Errorf("toolcert help does not list %s:\n%s", cmd, stdout)
		}
	}
}
