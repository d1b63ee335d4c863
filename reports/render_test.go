package reports

import (
	"bytes"
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// The not-applicable scenario of sample(): its ID and the reason the
// runner gives.
const (
	naID     = "features/request_ids.feature:5"
	naReason = "the target has no audit log the harness can read"
)

// The strict-only scenario of sample(), and its case that passes at level
// safe and fails at level strict.
const (
	strictOnlyID   = "features/reject_gates.feature:4"
	strictOnlyName = "an unknown member is refused with its gate and reason"
	safeOnlyCase   = "run_status/failed/extra_property"
)

// sample is a run that certifies level safe with one scenario of each
// status: passed, failed (with a leak and a failed generated case whose
// mark reached the agent, and a case that passes at level safe and fails
// at level strict), skipped, strict only (tagged @strict, failed at level
// strict) and not applicable.
func sample() *Result {
	both := func(s Status) map[Level]Status { return map[Level]Status{LevelSafe: s, LevelStrict: s} }
	r := &Result{
		Tool: "toolcert", Version: "test", Seed: 42, Target: "in-process reference", Level: LevelSafe,
		StartedAt: time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC),
		Duration:  Duration(1500 * time.Millisecond),
		Scenarios: []Scenario{
			{
				ID: "features/closed_objects.feature:7", Feature: "features/closed_objects.feature",
				Name: "an extra top-level property is rejected", Status: Passed, Levels: both(Passed),
				Duration: Duration(20 * time.Millisecond), Lane: 1,
				Steps: []Step{{Text: "the agent calls \"review_status\"", Status: Passed}},
			},
			{
				ID: "features/leaks.feature:3", Feature: "features/leaks.feature",
				Name: "a message is never forwarded", Status: Failed, Levels: both(Failed),
				Duration: Duration(30 * time.Millisecond), Lane: 2,
				Error: "canary leaked\nsecond line",
				Steps: []Step{{Text: "no canary reaches the agent", Status: Failed, Error: "canary leaked \x1b[31m"}},
				Cases: []Case{
					{ID: safeOnlyCase, Tool: "run_status", Operator: "extra_property", Kind: "ignorable", Status: Passed,
						Levels:     map[Level]Status{LevelSafe: Passed, LevelStrict: Failed},
						Reproducer: "toolcert run --case run_status/failed/extra_property --seed 42",
						Evidence: []Evidence{{Kind: EvidenceMismatch, Level: LevelStrict,
							Message: "the agent saw another outcome than the failure INVALID_RESPONSE", Diff: "-failure\n+success"}}},
					{ID: "run_status/failed/nan/attempt", Tool: "run_status", Operator: "nan", Field: "/attempt", Kind: "ignorable", Status: Failed,
						Levels:     both(Failed),
						Reproducer: "toolcert run --case run_status/failed/nan/attempt --seed 42",
						Evidence: []Evidence{
							{Kind: EvidenceMismatch, Message: "the agent saw success", Diff: "-failure\n+success"},
							{Kind: EvidenceMark, Message: "accepted: the mark planted at /toolcert_mark reached the agent in body (raw)",
								Canary: "tcm", Planted: "/toolcert_mark", Surfaced: "body", Encoding: "raw"},
						}},
				},
				Evidence: []Evidence{{Kind: EvidenceLeak, Message: "canary tcx planted in body /message surfaced in body as raw", Canary: "tcx", Planted: "body /message", Surfaced: "body", Encoding: "raw"}},
			},
			{
				ID: "features/leaks.feature:9", Feature: "features/leaks.feature",
				Name: "pending", Status: Skipped, Levels: both(Skipped), Steps: []Step{{Text: "x", Status: Skipped}},
			},
			{
				ID: strictOnlyID, Feature: "features/reject_gates.feature", Name: strictOnlyName, Line: 4, Tags: []string{StrictTag},
				Status: StrictOnly, Levels: map[Level]Status{LevelSafe: StrictOnly, LevelStrict: Failed},
				Duration: Duration(15 * time.Millisecond), Lane: 2, Error: "the audit event's gate is \"parse\", want \"schema\"",
				Steps: []Step{
					{Keyword: "When", Text: "the agent calls \"review_status\"", Status: Passed},
					{Keyword: "Then", Text: "the audit event's gate is \"schema\"", Status: Failed, Error: "the audit event's gate is \"parse\", want \"schema\""},
				},
				Evidence: []Evidence{{Kind: EvidenceAudit, Level: LevelStrict, Message: "gate parse, reason duplicate_name; want gate schema"}},
			},
			{
				ID: naID, Feature: "features/request_ids.feature",
				Name: "the audit event carries the request id", Status: NotApplicable, Levels: both(NotApplicable),
				Duration: Duration(10 * time.Millisecond), Lane: 1, Error: notApplicablePrefix + naReason,
				Steps: []Step{
					{Keyword: "When", Text: "the agent calls \"review_status\"", Status: Passed},
					{Keyword: "Then", Text: "the audit log holds one event for the call", Status: NotApplicable, Error: naReason},
					{Keyword: "Then", Text: "the event carries the call's request id", Status: Skipped},
				},
			},
		},
	}
	r.Tally()
	return r
}

func TestTally(t *testing.T) {
	got := sample().Summary
	want := Summary{Scenarios: 5, Passed: 1, Failed: 1, Skipped: 1, NotApplicable: 1, StrictOnly: 1, Leaks: 1, Marks: 1,
		Cases: 2, CasesPassed: 1, CasesFailed: 1, Levels: []LevelSummary{
			{Level: LevelSafe, Scenarios: 5, Passed: 1, Failed: 1, Skipped: 1, NotApplicable: 1, StrictOnly: 1, Cases: 2, CasesPassed: 1, CasesFailed: 1},
			{Level: LevelStrict, Scenarios: 5, Passed: 1, Failed: 2, Skipped: 1, NotApplicable: 1, Cases: 2, CasesFailed: 2},
		}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Tally() mismatch (-want +got):\n%s", diff)
	}
}

func TestRenderersGolden(t *testing.T) {
	for name, f := range Formats() {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := f.Render(&buf, sample()); err != nil {
				t.Fatalf("render %s: %v", name, err)
			}
			golden := filepath.Join("testdata", f.File)
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run with -update to create): %v", err)
			}
			if diff := cmp.Diff(string(want), buf.String()); diff != "" {
				t.Errorf("%s mismatch (-want +got):\n%s", f.File, diff)
			}
		})
	}
}

func TestJUnitIsWellFormed(t *testing.T) {
	var buf bytes.Buffer
	if err := JUnit(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	var v junitSuites
	if err := xml.Unmarshal(buf.Bytes(), &v); err != nil {
		t.Fatalf("junit.xml does not parse: %v", err)
	}
	// The skip, the not-applicable and the strict-only scenario are all
	// skipped: JUnit has no status of its own for the latter two. The case
	// that fails at level strict only passes at the level certified.
	skipped := 0
	for _, s := range v.Suites {
		skipped += s.Skipped
	}
	if v.Tests != 7 || v.Failures != 2 || v.Errors != 0 || skipped != 3 {
		t.Errorf("junit counts = tests %d failures %d errors %d skipped %d, want 7 2 0 3", v.Tests, v.Failures, v.Errors, skipped)
	}
}

func TestWriteUnknownFormat(t *testing.T) {
	if _, err := Write(t.TempDir(), sample(), "nope"); err == nil {
		t.Fatal("Write with an unknown format succeeded")
	}
}

func TestWriteDefault(t *testing.T) {
	dir := t.TempDir()
	paths, err := Write(dir, sample())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "results.json"), filepath.Join(dir, "junit.xml")}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("paths mismatch (-want +got):\n%s", diff)
	}
}

func TestBuildCoverage(t *testing.T) {
	got := BuildCoverage(sample().Scenarios, []string{"extra_property", "nan", "bom"})
	want := []Cell{
		{Operator: "bom", Tool: "run_status", Field: "", Status: CellNotExercised},
		{Operator: "bom", Tool: "run_status", Field: "/attempt", Status: CellNotExercised},
		{Operator: "extra_property", Tool: "run_status", Field: "", Status: CellPassed, Cases: 1, Passed: 1},
		{Operator: "extra_property", Tool: "run_status", Field: "/attempt", Status: CellNotExercised},
		{Operator: "nan", Tool: "run_status", Field: "", Status: CellNotExercised},
		{Operator: "nan", Tool: "run_status", Field: "/attempt", Status: CellFailed, Cases: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("BuildCoverage mismatch (-want +got):\n%s", diff)
	}
	var b bytes.Buffer
	CoverageTable(&b, got)
	for _, line := range []string{"extra_property", "1/1", "FAIL 0/1"} {
		if !bytes.Contains(b.Bytes(), []byte(line)) {
			t.Errorf("coverage table lacks %q:\n%s", line, b.String())
		}
	}
}

func TestParseFormats(t *testing.T) {
	tests := []struct {
		name, list string
		why        string
		want       []string // nil: refused
	}{
		{"one", "json", "a single name", []string{"json"}},
		{"blanks", " json , ,junit ", "blanks and empty items are ignored", []string{"json", "junit"}},
		{"all", "all", "all is every format, sorted", FormatNames()},
		{"unknown", "json,pdf", "an unknown name is refused, not skipped", nil},
		{"empty", ",", "a list that names nothing is refused", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseFormats(tt.list)
			if (err != nil) != (tt.want == nil) {
				t.Fatalf("ParseFormats(%q) error %v: %s", tt.list, err, tt.why)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseFormats(%q) (-want +got): %s\n%s", tt.list, tt.why, diff)
			}
		})
	}
}
