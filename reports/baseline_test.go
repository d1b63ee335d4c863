package reports

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	passingID  = "features/closed_objects.feature:7"
	failingID  = "features/leaks.feature:3"
	failedCase = "run_status/failed/nan/attempt"
)

func TestReadBaselineRefuses(t *testing.T) {
	tests := map[string]string{
		"unknown field": `{"scenarios": [{"id": "x", "why": "typo"}]}`,
		"empty id":      `{"cases": [{"id": ""}]}`,
		"repeated id":   `{"scenarios": [{"id": "x"}, {"id": "x"}]}`,
		"trailing data": `{} {}`,
		"not JSON":      `scenarios: x`,
	}
	for name, doc := range tests {
		if _, err := ReadBaseline(strings.NewReader(doc)); err == nil {
			t.Errorf("%s: ReadBaseline(%s) accepted it", name, doc)
		}
	}
}

func TestBaselineApply(t *testing.T) {
	tests := []struct {
		name        string
		baseline    Baseline
		marks       map[string]string // scenario or case ID -> mark
		unmatched   []string
		unexplained bool
	}{
		{
			name:        "no baseline entry: the failure stays unexplained",
			marks:       map[string]string{},
			unexplained: true,
		},
		{
			name:     "the failing scenario and its failing case are expected",
			baseline: Baseline{Scenarios: []Expected{{ID: failingID, Reason: "fix in #12"}}, Cases: []Expected{{ID: failedCase}}},
			marks:    map[string]string{failingID: ExpectedFailure, failedCase: ExpectedFailure},
		},
		{
			name:        "the case alone does not explain the scenario's own evidence",
			baseline:    Baseline{Cases: []Expected{{ID: failedCase}}},
			marks:       map[string]string{failedCase: ExpectedFailure},
			unexplained: true,
		},
		{
			name:        "a listed scenario with an unlisted failing case",
			baseline:    Baseline{Scenarios: []Expected{{ID: failingID}}},
			marks:       map[string]string{failingID: ExpectedFailure},
			unexplained: true,
		},
		{
			name: "a listed scenario that passes is an unexpected pass",
			baseline: Baseline{Scenarios: []Expected{{ID: failingID}, {ID: passingID}},
				Cases: []Expected{{ID: failedCase}, {ID: "run_status/failed/extra_property"}}},
			marks: map[string]string{failingID: ExpectedFailure, passingID: UnexpectedPass,
				failedCase: ExpectedFailure, "run_status/failed/extra_property": UnexpectedPass},
			unexplained: true,
		},
		{
			name:      "an ID the run did not reach is returned, not failed",
			baseline:  Baseline{Scenarios: []Expected{{ID: failingID}, {ID: "features/gone.feature: x"}}, Cases: []Expected{{ID: failedCase}}},
			marks:     map[string]string{failingID: ExpectedFailure, failedCase: ExpectedFailure},
			unmatched: []string{"features/gone.feature: x"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := withoutSkip(sample())
			unmatched := tt.baseline.Apply(r)
			if diff := cmp.Diff(tt.unmatched, unmatched); diff != "" {
				t.Errorf("unmatched (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.marks, marks(r)); diff != "" {
				t.Errorf("marks (-want +got):\n%s", diff)
			}
			if got := r.Summary.Unexplained(); got != tt.unexplained {
				t.Errorf("Unexplained() = %v, want %v; summary %+v", got, tt.unexplained, r.Summary)
			}
		})
	}
}

func TestBaselineOfExplainsItsRun(t *testing.T) {
	r := withoutSkip(sample())
	b := BaselineOf(r)
	want := &Baseline{Level: LevelSafe, Scenarios: []Expected{{ID: failingID}}, Cases: []Expected{{ID: failedCase}}}
	if diff := cmp.Diff(want, b); diff != "" {
		t.Fatalf("BaselineOf (-want +got):\n%s", diff)
	}
	b.Apply(r)
	if r.Summary.Unexplained() {
		t.Errorf("the run's own baseline leaves it unexplained: %+v", r.Summary)
	}
}

func TestJUnitBaseline(t *testing.T) {
	r := withoutSkip(sample())
	(&Baseline{Scenarios: []Expected{{ID: failingID}, {ID: passingID}}, Cases: []Expected{{ID: failedCase}}}).Apply(r)
	var buf bytes.Buffer
	if err := JUnit(&buf, r); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Skipped  int `xml:"-"`
		Suites   []struct {
			Skipped int `xml:"skipped,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for _, s := range got.Suites {
		got.Skipped += s.Skipped // testsuites carries no skipped count: junit-10.xsd allows none
	}
	// 4 scenarios and 2 cases: the passing listed scenario fails, the
	// expected failure and its expected case are skipped, and so are the
	// not-applicable and the strict-only scenario.
	if got.Tests != 6 || got.Failures != 1 || got.Skipped != 4 {
		t.Errorf("junit counts %+v, want 6 tests, 1 failure, 4 skipped:\n%s", got, buf.String())
	}
	if !strings.Contains(buf.String(), "unexpected pass") || !strings.Contains(buf.String(), "expected failure (baseline)") {
		t.Errorf("junit lacks the baseline messages:\n%s", buf.String())
	}
}

// withoutSkip returns r without its skipped scenario.
func withoutSkip(r *Result) *Result {
	var kept []Scenario
	for _, sc := range r.Scenarios {
		if sc.Status != Skipped {
			kept = append(kept, sc)
		}
	}
	r.Scenarios = kept
	r.Tally()
	return r
}

// marks returns the baseline mark of every scenario and case that has one.
func marks(r *Result) map[string]string {
	m := map[string]string{}
	for _, sc := range r.Scenarios {
		if sc.Baseline != "" {
			m[sc.ID] = sc.Baseline
		}
		for _, c := range sc.Cases {
			if c.Baseline != "" {
				m[c.ID] = c.Baseline
			}
		}
	}
	return m
}

// TestWriteBaselineRoundTrip: what WriteBaseline writes, LoadBaseline reads
// back, in the indented form a reviewer diffs.
func TestWriteBaselineRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baseline.json")
	want := BaselineOf(withoutSkip(sample()))
	if err := WriteBaseline(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := LoadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	raw, _ := os.ReadFile(path)
	wantRaw := "{\n  \"level\": \"safe\",\n  \"scenarios\": [\n    {\n      \"id\": \"" + failingID + "\"\n    }\n  ],\n  \"cases\": [\n    {\n      \"id\": \"" + failedCase + "\"\n    }\n  ]\n}\n"
	if diff := cmp.Diff(wantRaw, string(raw)); diff != "" {
		t.Errorf("baseline file (-want +got):\n%s", diff)
	}
}

// TestWriteBaselineFails: a baseline that cannot be put in place leaves
// no temporary file behind.
func TestWriteBaselineFails(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "baseline.json")
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteBaseline(path, &Baseline{}); err == nil {
		t.Fatal("WriteBaseline over a folder succeeded")
	}
	if got := names(t, dir); !slices.Equal(got, []string{"baseline.json"}) {
		t.Errorf("folder holds %q, want only the folder baseline.json", got)
	}
}

// TestBaselineTakesIDsWithFolders: a baseline written when scenario IDs
// held the feature file's folders still matches.
func TestBaselineTakesIDsWithFolders(t *testing.T) {
	r := &Result{Scenarios: []Scenario{{ID: ScenarioID("features/transport.feature", "a 403 is not retried"), Status: Failed, Error: "x"}}}
	b := Baseline{Scenarios: []Expected{{ID: "features/transport.feature: a 403 is not retried"}}}
	if unmatched := b.Apply(r); len(unmatched) != 0 || r.Scenarios[0].Baseline != ExpectedFailure {
		t.Errorf("unmatched %v, baseline mark %q: the old ID did not match", unmatched, r.Scenarios[0].Baseline)
	}
}
