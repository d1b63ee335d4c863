package attest

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// testKey returns a new key pair written into a temporary folder, and the
// paths of its files.
func testKey(tb testing.TB) (key *Key, keyPath, pubPath string) {
	tb.Helper()
	keyPath, pubPath, err := GenerateKeys(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	if key, err = LoadKey(keyPath); err != nil {
		tb.Fatal(err)
	}
	return key, keyPath, pubPath
}

// testStatement returns a small statement of result about a subject of
// digest sum, for upstream version version ("" for all).
func testStatement(result Result, sum, version string) *Statement {
	versions := []string{"v1", "v2"}
	if version != "" {
		versions = []string{version}
	}
	return &Statement{
		Type: StatementType, PredicateType: PredicateType,
		Subject: []ResourceDescriptor{{Name: "my-adapter", Digest: sha256Of(sum), Annotations: map[string]string{"kind": "v1-process"}}},
		Predicate: TestResult{
			Result:        result,
			Configuration: []ResourceDescriptor{{Name: ConfigSeed, Digest: sha256Of(StringDigest("7")), Annotations: map[string]string{"value": "7"}}},
			PassedTests:   []string{"first_test.feature: a nearly valid review leaks nothing"},
			WarnedTests:   []string{}, FailedTests: []string{},
			Toolcert: Run{Version: "0.1.0-test", Target: "process ./my-adapter", UpstreamVersion: version, UpstreamVersions: versions,
				Timestamp: time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC), Verdict: "passed", Reasons: []string{"every scenario passed"},
				Counts: Counts{Scenarios: 1, Passed: 1}},
		},
	}
}

// writeTemp writes data into a new file of a temporary folder and returns
// its path.
func writeTemp(tb testing.TB, name string, data []byte) string {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}
