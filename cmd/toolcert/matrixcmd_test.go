package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMatrix(t *testing.T) {
	key, pub := keygen(t)
	v1 := certify(t, key, exitPass, "--features", firstTest, "--upstream-version", "v1")
	all := certify(t, key, exitPass, "--features", firstTest)
	foreign := certify(t, keyOf(t, otherPub(t)), exitPass, "--features", firstTest)

	code, stdout, stderr := runCLI(t, "matrix", v1, all, "--pubkey", pub)
	if code != exitPass {
		t.Fatalf("matrix exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"| adapter | sha256 | v1 | all |", "| toolcert-reference |", "**PASSED**", "1 passed, 0 failed", "verified with the key"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the matrix lacks %q:\n%s", want, stdout)
		}
	}

	code, stdout, _ = runCLI(t, "matrix", v1, foreign, "--pubkey", pub)
	if code != exitFail || !strings.Contains(stdout, "Left out") || !strings.Contains(stdout, foreign) {
		t.Errorf("matrix with an attestation of another key: exit %d, want 1 and it left out:\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(t, "matrix", v1, foreign)
	if code != exitPass || !strings.Contains(stdout, "NOT checked") {
		t.Errorf("matrix without --pubkey: exit %d, want 0 and a word that nothing was checked:\n%s", code, stdout)
	}

	page := filepath.Join(t.TempDir(), "matrix.html")
	if code, _, stderr := runCLI(t, "matrix", "--format", "html", "--out", page, "--pubkey", pub, v1, all); code != exitPass {
		t.Fatalf("matrix --format html exit %d:\n%s", code, stderr)
	}
	if b, _ := os.ReadFile(page); !strings.HasPrefix(string(b), "<!DOCTYPE html>") || !strings.Contains(string(b), "toolcert-reference") {
		t.Errorf("matrix.html is not the page:\n%s", b)
	}

	for _, args := range [][]string{
		{"matrix"},
		{"matrix", v1, "--format", "pdf"},
		{"matrix", filepath.Join(t.TempDir(), "none.json")},
		{"matrix", v1, "--pubkey", filepath.Join(t.TempDir(), "none.pub")},
	} {
		if code, _, stderr := runCLI(t, args...); code != exitConfig {
			t.Errorf("%q: exit %d, want 2:\n%s", args, code, stderr)
		}
	}
}

// keyOf returns the private key beside the public key pub.
func keyOf(t *testing.T, pub string) string {
	t.Helper()
	return filepath.Join(filepath.Dir(pub), "toolcert.key")
}
