package reports

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReadResultRoundTrip: what JSON writes, ReadResult reads back whole.
func TestReadResultRoundTrip(t *testing.T) {
	want := sample()
	want.Coverage = BuildCoverage(want.Scenarios, []string{"nan"})
	want.BaselineUnmatched = []string{"gone"}
	var buf bytes.Buffer
	if err := JSON(&buf, want); err != nil {
		t.Fatal(err)
	}
	got, err := ReadResult(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
}

func TestReadResultRefuses(t *testing.T) {
	tests := map[string]string{
		"unknown field": `{"tool": "toolcert", "verdict": "passed"}`,
		"trailing data": `{"tool": "toolcert"} {}`,
		"not an object": `[]`,
		"wrong type":    `{"seed": "42"}`,
	}
	for name, doc := range tests {
		if _, err := ReadResult(strings.NewReader(doc)); err == nil || !strings.HasPrefix(err.Error(), "read results: ") {
			t.Errorf("%s: ReadResult(%s) = %v, want a read results error", name, doc, err)
		}
	}
}

func TestLoadResultNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadResult(filepath.Join(dir, "missing.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("LoadResult of a missing file: %v, want fs.ErrNotExist", err)
	}
	bad := filepath.Join(dir, "results.json")
	if err := os.WriteFile(bad, []byte(`{"nope": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadResult(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("LoadResult of a bad file: %v, want an error naming %s", err, bad)
	}
}
