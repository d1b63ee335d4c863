package attest

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/reports"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// matrixStatements are the attestations of the golden matrices: two
// versions of an adapter, an MCP server with a hostile name, a cell with
// two attestations (the later stands); a run that failed strict and
// passed safe, one that certified safe, and the others written before
// levels.
func matrixStatements() []*Statement {
	levels := func(st *Statement, certified reports.Level, safe, strict Result) *Statement {
		st.Predicate.Toolcert.Level = certified
		st.Predicate.Toolcert.Levels = []LevelResult{{Level: reports.LevelSafe, Result: safe}, {Level: reports.LevelStrict, Result: strict}}
		return st
	}
	day := func(d int) time.Time { return time.Date(2025, 3, d, 12, 0, 0, 0, time.UTC) }
	at := func(st *Statement, d int, c Counts) *Statement {
		st.Predicate.Toolcert.Timestamp, st.Predicate.Toolcert.Counts = day(d), c
		return st
	}
	full := Counts{Scenarios: 118, Passed: 115, NotApplicable: 3, Cases: 2533, CasesPassed: 2533}
	failing := Counts{Scenarios: 118, Passed: 110, Failed: 5, NotApplicable: 3, Cases: 2533, CasesPassed: 2520, CasesFailed: 13}
	v1 := StringDigest("adapter 1.0")
	v2 := StringDigest("adapter 2.0")
	hostile := testStatement(Warned, StringDigest("evil"), "v1")
	hostile.Subject[0].Name = "evil|name\x1b[2J<script>alert(1)</script>"
	hostile.Subject[0].Annotations["serverVersion"] = "*1.0*"
	hostile.Predicate.Toolcert.Selection = Selection{Tags: "@mcp"}
	return []*Statement{
		levels(at(testStatement(Failed, v1, "v2"), 1, failing), reports.LevelStrict, Passed, Failed),
		at(testStatement(Passed, v1, "v1"), 1, full),
		at(testStatement(Failed, v2, "v1"), 2, failing),
		at(testStatement(Passed, v2, "v1"), 3, full), // later: it stands
		levels(at(testStatement(Passed, v2, ""), 4, full), reports.LevelSafe, Passed, Failed),
		at(hostile, 5, Counts{Scenarios: 9, Passed: 8, Failed: 1, ExpectedFailures: 1, Skipped: 0}),
	}
}

func TestMatrixGolden(t *testing.T) {
	checked := NewMatrix(matrixStatements(), true, "8c958135d6f962f5")
	checked.Rejected = []string{"tampered.json: the signature does not verify with the key\x1b]0;x\x07"}
	unchecked := NewMatrix(matrixStatements(), false, "")
	tests := []struct {
		golden string
		render func(io.Writer, Matrix) error
		m      Matrix
	}{
		{"matrix.md", Markdown, checked},
		{"matrix.html", HTML, checked},
		{"matrix_unchecked.md", Markdown, unchecked},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			var b bytes.Buffer
			if err := tt.render(&b, tt.m); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", tt.golden)
			if *update {
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if diff := cmp.Diff(string(want), b.String()); diff != "" {
				t.Errorf("%s differs (-want +got):\n%s", golden, diff)
			}
			for _, raw := range []string{"\x1b", "\x07", "<script>"} {
				if strings.Contains(b.String(), raw) {
					t.Errorf("%s holds the raw %q", tt.golden, raw)
				}
			}
		})
	}
}

func TestNewMatrixLayout(t *testing.T) {
	m := NewMatrix(matrixStatements(), true, "k")
	if diff := cmp.Diff([]string{"v1", "v2", AllVersions}, m.Versions); diff != "" {
		t.Errorf("versions (-want +got):\n%s", diff)
	}
	if len(m.Rows) != 3 {
		t.Fatalf("%d rows, want 3 (two digests of my-adapter, one hostile server)", len(m.Rows))
	}
	for _, r := range m.Rows {
		if r.Digest != StringDigest("adapter 2.0")[:12] {
			continue
		}
		if c := r.Cells[0]; c.Result != Passed || c.Attestations != 2 || c.Date != "2025-03-03" {
			t.Errorf("v1 cell of adapter 2.0 = %+v, want the later PASSED of 2", c)
		}
		if c := r.Cells[1]; c.Attestations != 0 {
			t.Errorf("v2 cell of adapter 2.0 = %+v, want empty", c)
		}
	}
}
