package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolcert/toolcert/internal/attest"
	"github.com/toolcert/toolcert/runner"
)

// firstTest is a one-scenario feature file: certify runs stay short.
var firstTest = filepath.Join("..", "..", "features", "first_test.feature")

// certify runs toolcert certify with key and args, checks its exit code
// against want, and returns the attestation's path.
func certify(t *testing.T, key string, want int, args ...string) string {
	t.Helper()
	att := filepath.Join(t.TempDir(), "att.intoto.json")
	args = append([]string{"certify", "--quiet", "--out", t.TempDir(), "--seed", "3", "--key", key, "--attestation", att}, args...)
	code, stdout, stderr := runCLI(t, args...)
	if code != want {
		t.Fatalf("certify %q: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", args, code, want, stdout, stderr)
	}
	return att
}

// statementOf returns the statement of the attestation at path, its
// signature checked with pub.
func statementOf(t *testing.T, path, pub string) *attest.Statement {
	t.Helper()
	key, err := attest.LoadPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := attest.Open(t.Context(), data, key)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestCertifyReferenceInProcess(t *testing.T) {
	key, pub := keygen(t)
	att := certify(t, key, exitPass, "--features", firstTest, "--upstream-version", "v1")
	st := statementOf(t, att, pub)
	self, _ := attest.FileDigest(os.Args[0])
	if s := st.Subject[0]; s.Name != attest.ReferenceName || s.SHA256() != self {
		t.Errorf("subject %+v, want %s with the test binary's digest %s", s, attest.ReferenceName, self)
	}
	p := st.Predicate
	if p.Result != attest.Passed || len(p.PassedTests) != 1 || p.Toolcert.UpstreamVersion != "v1" || p.Toolcert.Counts.Passed != 1 {
		t.Errorf("predicate %+v, want PASSED with the one scenario, upstream v1", p)
	}
	if _, ok := st.Configuration(attest.ConfigBaseline); ok {
		t.Error("a run without a baseline has a baseline in its configuration")
	}
	other := filepath.Join(t.TempDir(), "other-adapter")
	if err := os.WriteFile(other, []byte("another binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want int
		says string
	}{
		{"the binary that ran", []string{att, "--pubkey", pub, "--subject", os.Args[0], "--upstream-version", "v1"}, exitPass, "VERIFIED"},
		{"flags before the attestation", []string{"--pubkey", pub, "--forbid-baseline", att}, exitPass, "VERIFIED"},
		{"another binary", []string{att, "--pubkey", pub, "--subject", other}, exitFail, "subject:"},
		{"another upstream version", []string{att, "--pubkey", pub, "--upstream-version", "v2"}, exitFail, "upstream version:"},
		{"another key", []string{att, "--pubkey", otherPub(t)}, exitFail, "signature does not verify"},
		{"no key", []string{att}, exitConfig, "--pubkey"},
		{"two attestations", []string{att, att, "--pubkey", pub}, exitConfig, "one ATTESTATION"},
		{"an unknown requirement", []string{att, "--pubkey", pub, "--require", "failed"}, exitConfig, "--require"},
		{"a missing attestation", []string{filepath.Join(t.TempDir(), "none.json"), "--pubkey", pub}, exitConfig, "read attestation"},
		{"a missing subject", []string{att, "--pubkey", pub, "--subject", filepath.Join(t.TempDir(), "gone")}, exitConfig, "--subject"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out := verifyCode(t, tt.args...)
			if code != tt.want || !strings.Contains(out, tt.says) {
				t.Errorf("verify %q: exit %d, want %d and %q:\n%s", tt.args, code, tt.want, tt.says, out)
			}
		})
	}
}

// otherPub returns the public key of another key pair.
func otherPub(t *testing.T) string {
	_, pub := keygen(t)
	return pub
}

// hostileCmd returns the --target-cmd of this test binary serving the
// hostile adapter of mode (hostile_test.go).
func hostileCmd(mode string) string {
	token := make([]byte, 8)
	_, _ = rand.Read(token)
	return fmt.Sprintf("'%s' %s %s tok%s", os.Args[0], hostileArg, mode, hex.EncodeToString(token))
}

func TestCertifyFailingRunAndBaseline(t *testing.T) {
	key, pub := keygen(t)
	baseline := filepath.Join(t.TempDir(), "baseline.json")
	target := hostileCmd("status500")
	att := certify(t, key, exitFail, "--features", firstTest, "--target-cmd", target, "--write-baseline", baseline)
	st := statementOf(t, att, pub)
	if p := st.Predicate; p.Result != attest.Failed || len(p.FailedTests) != 1 {
		t.Errorf("predicate of a failing run: %+v, want FAILED with its failed scenario", p)
	}
	if code, out := verifyCode(t, att, "--pubkey", pub, "--subject", os.Args[0]); code != exitFail || !strings.Contains(out, "result: FAILED") {
		t.Errorf("verify of a FAILED attestation: exit %d, want 1 and the result:\n%s", code, out)
	}

	warned := certify(t, key, exitPass, "--features", firstTest, "--target-cmd", target, "--baseline", baseline)
	st = statementOf(t, warned, pub)
	if p := st.Predicate; p.Result != attest.Warned || len(p.WarnedTests) != 1 || len(p.FailedTests) != 0 {
		t.Errorf("predicate of a run passed by its baseline: %+v, want WARNED with the expected failure", p)
	}
	sum, _ := attest.FileDigest(baseline)
	if d, ok := st.Configuration(attest.ConfigBaseline); !ok || d.SHA256() != sum {
		t.Errorf("baseline descriptor %+v, %v; want the baseline's digest %s", d, ok, sum)
	}
	for _, tt := range []struct {
		args []string
		want int
	}{
		{nil, exitFail},
		{[]string{"--require", "warned"}, exitPass},
		{[]string{"--require", "warned", "--forbid-baseline"}, exitFail},
	} {
		code, out := verifyCode(t, append([]string{warned, "--pubkey", pub}, tt.args...)...)
		if code != tt.want {
			t.Errorf("verify WARNED %q: exit %d, want %d:\n%s", tt.args, code, tt.want, out)
		}
	}
}

func TestCertifyStartFailureWritesFailed(t *testing.T) {
	key, pub := keygen(t)
	att := certify(t, key, exitConfig, "--features", firstTest, "--target-cmd", hostileCmd("exit"))
	p := statementOf(t, att, pub).Predicate
	if p.Result != attest.Failed || len(p.Toolcert.Reasons) == 0 || p.Toolcert.Reasons[0] != runner.ErrTargetStart.Error() {
		t.Errorf("predicate of a target that did not start: %+v, want FAILED saying so", p)
	}
}

func TestCertifyConfigErrorWritesNothing(t *testing.T) {
	key, _ := keygen(t)
	tests := []struct {
		name string
		args []string
	}{
		{"no key", []string{"certify", "--features", firstTest}},
		{"a missing key", []string{"certify", "--key", filepath.Join(t.TempDir(), "none.key")}},
		{"a public key", []string{"certify", "--key", filepath.Join(filepath.Dir(key), "toolcert.pub")}},
		{"no lane", []string{"certify", "--key", key, "--concurrency", "0"}},
		{"a command not in PATH", []string{"certify", "--key", key, "--target-cmd", "no-such-adapter-xyz"}},
		{"an unknown upstream version", []string{"certify", "--key", key, "--upstream-version", "v9", "--features", firstTest}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			att := filepath.Join(t.TempDir(), "att.json")
			code, stdout, stderr := runCLI(t, append(tt.args, "--attestation", att, "--out", t.TempDir(), "--quiet")...)
			if code != exitConfig {
				t.Errorf("exit %d, want 2\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if _, err := os.Stat(att); err == nil {
				t.Error("an attestation was written for a run that did not happen")
			}
		})
	}
}

// TestCertifyProcessAndMCPTargets certifies the toolcert binary's
// reference adapter as a process and as an MCP server, verifies each
// against that binary and another, and flips every byte of a real
// envelope: no flip verifies.
func TestCertifyProcessAndMCPTargets(t *testing.T) {
	bin := buildToolcert(t)
	key, pub := keygen(t)
	att := certify(t, key, exitPass, "--features", firstTest, "--upstream-version", "v1", "--target-cmd", "'"+bin+"' adapter")
	sum, _ := attest.FileDigest(bin)
	if s := statementOf(t, att, pub).Subject[0]; s.Name != "toolcert" || s.SHA256() != sum || s.Annotations["kind"] != "v1-process" {
		t.Errorf("subject %+v, want the built binary, sha256 %s", s, sum)
	}
	if code, out := verifyCode(t, att, "--pubkey", pub, "--subject", bin, "--upstream-version", "v1", "--forbid-baseline"); code != exitPass {
		t.Errorf("verify against the binary that ran: exit %d:\n%s", code, out)
	}
	if code, out := verifyCode(t, att, "--pubkey", pub, "--subject", os.Args[0]); code != exitFail || !strings.Contains(out, "subject:") {
		t.Errorf("verify against another binary: exit %d, want 1:\n%s", code, out)
	}

	mcpFeature := filepath.Join("..", "..", "features", "mcp_server.feature")
	mcpAtt := certify(t, key, exitPass, "--features", mcpFeature, "--target-mcp-cmd", "'"+bin+"' adapter --mcp stdio")
	s := statementOf(t, mcpAtt, pub).Subject[0]
	if s.Name != attest.ReferenceName || s.Annotations["serverVersion"] == "" || s.SHA256() != sum {
		t.Errorf("MCP subject %+v, want the server's name and version and the binary's digest", s)
	}
	if code, out := verifyCode(t, mcpAtt, "--pubkey", pub, "--subject", bin); code != exitPass {
		t.Errorf("verify the MCP attestation: exit %d:\n%s", code, out)
	}

	tamperEveryByte(t, att, pub)
}

// TestCertifyLevels certifies, at each level, a mutant that passes level
// safe and fails level strict: the attestation names the level certified
// and the result at each, and verify --level asks for either, whichever
// the run certified.
func TestCertifyLevels(t *testing.T) {
	mutant := filepath.Join(t.TempDir(), "toolcert-mutant")
	if out, err := exec.Command("go", "build", "-o", mutant, "github.com/toolcert/toolcert/cmd/toolcert-mutant").CombinedOutput(); err != nil {
		t.Fatalf("build mutant: %v\n%s", err, out)
	}
	key, pub := keygen(t)
	variants := filepath.Join(t.TempDir(), "review_status_variants.feature")
	feature := "Feature: the generated variants of review_status\n  Scenario: every variant of review_status\n" +
		"    Then every generated variant of \"review_status\" is handled as expected without leaking\n"
	if err := os.WriteFile(variants, []byte(feature), 0o644); err != nil {
		t.Fatal(err)
	}
	target := []string{"--features", variants, "--target-cmd", mutant + " --mutant additional-properties-ignored"}
	tests := []struct {
		level        string
		exit         int
		result       attest.Result
		safe, strict attest.Result
		verify       map[string]int // --level (or "" for none) -> exit
	}{
		{"safe", exitPass, attest.Passed, attest.Passed, attest.Failed, map[string]int{"": exitPass, "safe": exitPass, "strict": exitFail}},
		{"strict", exitFail, attest.Failed, attest.Passed, attest.Failed, map[string]int{"": exitFail, "safe": exitPass, "strict": exitFail}},
	}
	for _, tt := range tests {
		t.Run(tt.level, func(t *testing.T) {
			att := certify(t, key, tt.exit, append([]string{"--level", tt.level}, target...)...)
			run := statementOf(t, att, pub).Predicate.Toolcert
			var got []string
			for _, lr := range run.Levels {
				got = append(got, string(lr.Level)+" "+string(lr.Result))
			}
			want := []string{"safe " + string(tt.safe), "strict " + string(tt.strict)}
			if p := statementOf(t, att, pub).Predicate; p.Result != tt.result || string(run.Level) != tt.level || strings.Join(got, ", ") != strings.Join(want, ", ") {
				t.Errorf("predicate %s at level %q, levels %q; want %s at %s, levels %q", p.Result, run.Level, got, tt.result, tt.level, want)
			}
			for level, code := range tt.verify {
				args := []string{att, "--pubkey", pub}
				if level != "" {
					args = append(args, "--level", level)
				}
				if got, out := verifyCode(t, args...); got != code || !strings.Contains(out, "at level "+tt.level) && code == exitPass {
					t.Errorf("verify --level %q of the %s certificate: exit %d, want %d:\n%s", level, tt.level, got, code, out)
				}
			}
		})
	}
	if code, out := verifyCode(t, "--pubkey", pub, "--level", "lenient", filepath.Join(t.TempDir(), "x")); code != exitConfig || !strings.Contains(out, "--level") {
		t.Errorf("verify --level lenient: exit %d, want 2 naming --level:\n%s", code, out)
	}
}
