package reports

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The scenarios of controlSample, by ID.
const (
	dupPlainID   = "features/duplicate_members.feature:7"
	dupEscapedID = "features/duplicate_members.feature:14"
	variantsID   = "features/generated_variants.feature:16"
	callsID      = "features/calls_approvals.feature:14"
	skippedCalls = "features/calls_approvals.feature:28"
	dupCaseID    = "run_status/failed/duplicate_member/state#first"
	nanCaseID    = "run_status/failed/nan/attempt"
)

// controlCatalogue maps two features, a tag and two operators onto five
// controls, one of which (LLM06) only a skipped scenario gives evidence
// for, and one (JSON Schema) nothing the sample runs.
func controlCatalogue() *Catalogue {
	return &Catalogue{
		Controls: []Control{
			{ID: "RFC8259-4", Title: "Objects: the names within an object SHOULD be unique", Source: "RFC 8259", Section: "4",
				URL: "https://www.rfc-editor.org/rfc/rfc8259#section-4", CWE: []string{"CWE-436"}},
			{ID: "CWE-436", Title: "Interpretation Conflict", Source: SourceCWE, Section: "436", URL: "https://cwe.mitre.org/data/definitions/436.html"},
			{ID: "CWE-20", Title: "Improper Input Validation", Source: SourceCWE, Section: "20", URL: "https://cwe.mitre.org/data/definitions/20.html"},
			{ID: "LLM06:2025", Title: "Excessive Agency", Source: "OWASP Top 10 for LLM Applications 2025", Section: "LLM06:2025",
				URL: "https://genai.owasp.org/llmrisk/llm062025-excessive-agency/"},
			{ID: "JSONSchema-2020-12-validation-7", Title: "format as an assertion", Source: "JSON Schema 2020-12 Validation", Section: "7", CWE: []string{"CWE-20"}},
		},
		Features: map[string][]string{
			"duplicate_members.feature": {"RFC8259-4", "CWE-436"},
			"calls_approvals.feature":   {"LLM06:2025"},
		},
		Tags: map[string][]string{"@calls": {"LLM06:2025", "no-such-control"}},
		Operators: map[string][]string{
			"duplicate_member": {"CWE-436", "RFC8259-4"},
			"nan":              {"CWE-20"},
			"bad_format":       {"JSONSchema-2020-12-validation-7"},
		},
	}
}

// controlSample is a run of the features controlCatalogue maps: the plain
// duplicate passes, the escaped one fails, the generated duplicate passes
// and NaN fails, the approvals scenario is skipped; its controls are
// evaluated.
func controlSample() *Result {
	r := &Result{
		Tool: "toolcert", Version: "test", Seed: 42, Target: "in-process reference",
		StartedAt: time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC), Duration: Duration(2 * time.Second),
		Scenarios: []Scenario{
			{ID: callsID, Feature: "features/calls_approvals.feature", Name: "ask, then approve", Line: 14, Tags: []string{"@calls"},
				Status: Skipped, Steps: []Step{{Keyword: "Given", Text: "a session", Status: Skipped, Line: 15}}},
			{ID: dupPlainID, Feature: "features/duplicate_members.feature", Name: "a plain duplicate member is rejected at the parse gate",
				Line: 7, Tags: []string{"@upstream-v1"}, Status: Passed, Lane: 1,
				Steps: []Step{{Keyword: "Then", Text: "the call fails", Status: Passed, Line: 10}}},
			{ID: dupEscapedID, Feature: "features/duplicate_members.feature", Name: "an escaped-equivalent duplicate member is rejected at the parse gate",
				Line: 14, Tags: []string{"@upstream-v1"}, Status: Failed, Lane: 2, Error: "the adapter accepted the document",
				Steps:    []Step{{Keyword: "Then", Text: "the call fails", Status: Failed, Error: "the adapter accepted the document", Line: 17}},
				Evidence: []Evidence{{Kind: EvidenceMismatch, Message: "the agent saw success"}}},
			{ID: variantsID, Feature: "features/generated_variants.feature", Name: "every variant of run_status", Line: 16,
				Tags: []string{"@generated"}, Status: Failed, Lane: 1, Error: "1 of 2 generated variants failed",
				Steps: []Step{{Keyword: "Then", Text: "every generated variant of \"run_status\" is handled as expected without leaking", Status: Failed, Line: 17}},
				Cases: []Case{
					{ID: dupCaseID, Tool: "run_status", Operator: "duplicate_member", Field: "/state", Status: Passed,
						Reproducer: "toolcert run --case 'run_status/failed/duplicate_member/state#first' --seed 42"},
					{ID: nanCaseID, Tool: "run_status", Operator: "nan", Field: "/attempt", Status: Failed,
						Reproducer: "toolcert run --case run_status/failed/nan/attempt --seed 42",
						Evidence:   []Evidence{{Kind: EvidenceMismatch, Message: "the agent saw success", Diff: "-failure\n+success"}}},
				}},
		},
	}
	r.Tally()
	r.Controls = controlCatalogue().Evaluate(r)
	return r
}

// controlStates returns "ID status passed/failed" per control.
func controlStates(controls []ControlResult) []string {
	var out []string
	for _, cr := range controls {
		out = append(out, fmt.Sprintf("%s %s %d/%d", cr.ID, cr.Status, cr.Passed, cr.Failed))
	}
	return out
}

func TestCatalogueEvaluate(t *testing.T) {
	tests := []struct {
		name string
		why  string
		edit func(r *Result)
		want []string
	}{
		{
			name: "sample",
			why:  "a feature failure violates its controls; a passed case evidences its operator's; a skip and an unrun operator exercise nothing",
			want: []string{"RFC8259-4 violated 2/1", "CWE-436 violated 2/1", "CWE-20 violated 0/1", "LLM06:2025 not_exercised 0/0", "JSONSchema-2020-12-validation-7 not_exercised 0/0"},
		},
		{
			name: "all passed",
			why:  "every mapped scenario and case passed: evidenced",
			edit: func(r *Result) {
				r.Scenarios[2].Status = Passed
				r.Scenarios[3].Cases[1].Status = Passed
			},
			want: []string{"RFC8259-4 evidenced 3/0", "CWE-436 evidenced 3/0", "CWE-20 evidenced 1/0", "LLM06:2025 not_exercised 0/0", "JSONSchema-2020-12-validation-7 not_exercised 0/0"},
		},
		{
			name: "not applicable",
			why:  "a not-applicable scenario is neither evidence nor a violation",
			edit: func(r *Result) { r.Scenarios[0].Status = NotApplicable },
			want: []string{"RFC8259-4 violated 2/1", "CWE-436 violated 2/1", "CWE-20 violated 0/1", "LLM06:2025 not_exercised 0/0", "JSONSchema-2020-12-validation-7 not_exercised 0/0"},
		},
		{
			name: "tag",
			why:  "a tag maps a scenario of an unmapped feature; the feature and the tag naming the same control count it once; an unknown control ID is ignored",
			edit: func(r *Result) {
				r.Scenarios[0].Status = Passed
				r.Scenarios = append(r.Scenarios, Scenario{ID: "features/other.feature:3", Feature: "features/other.feature", Tags: []string{"@calls"}, Status: Passed})
			},
			want: []string{"RFC8259-4 violated 2/1", "CWE-436 violated 2/1", "CWE-20 violated 0/1", "LLM06:2025 evidenced 2/0", "JSONSchema-2020-12-validation-7 not_exercised 0/0"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := controlSample()
			if tt.edit != nil {
				tt.edit(r)
			}
			got := controlStates(controlCatalogue().Evaluate(r))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Evaluate (%s) mismatch (-want +got):\n%s", tt.why, diff)
			}
		})
	}
}

func TestCatalogueEvaluateViolations(t *testing.T) {
	r := controlSample()
	(&Baseline{Cases: []Expected{{ID: nanCaseID}}}).Apply(r)
	got := controlCatalogue().Evaluate(r)
	want := ControlResult{
		Control: controlCatalogue().Controls[2], Status: ControlViolated, Failed: 1, Expected: 1,
		Violations:  []ControlRef{{Scenario: variantsID, Case: nanCaseID, Expected: true}},
		EvidencedBy: ControlMapping{Operators: []string{"nan"}},
	}
	if diff := cmp.Diff(want, got[2]); diff != "" {
		t.Errorf("CWE-20 with an expected failure (-want +got):\n%s", diff)
	}
	want = ControlResult{
		Control: controlCatalogue().Controls[0], Status: ControlViolated, Passed: 2, Failed: 1,
		Violations:  []ControlRef{{Scenario: dupEscapedID}},
		EvidencedBy: ControlMapping{Features: []string{"duplicate_members.feature"}, Operators: []string{"duplicate_member"}},
	}
	if diff := cmp.Diff(want, got[0]); diff != "" {
		t.Errorf("RFC8259-4 (-want +got):\n%s", diff)
	}
}

func TestCatalogueEvaluateBoundsViolations(t *testing.T) {
	r := &Result{}
	for i := range maxControlViolations + 5 {
		r.Scenarios = append(r.Scenarios, Scenario{ID: fmt.Sprintf("features/duplicate_members.feature:%d", i), Feature: "features/duplicate_members.feature", Status: Failed})
	}
	got := controlCatalogue().Evaluate(r)[0]
	if got.Failed != maxControlViolations+5 || len(got.Violations) != maxControlViolations {
		t.Errorf("failed %d, violations listed %d; want %d and %d", got.Failed, len(got.Violations), maxControlViolations+5, maxControlViolations)
	}
}

func TestCatalogueEvaluateNoCatalogue(t *testing.T) {
	var c *Catalogue
	if got := c.Evaluate(controlSample()); got != nil {
		t.Errorf("a nil catalogue evaluates to %v, want no controls", got)
	}
	if got := (&Catalogue{}).Evaluate(controlSample()); got != nil {
		t.Errorf("an empty catalogue evaluates to %v, want no controls", got)
	}
}

// TestCatalogueOf: the catalogue rebuilt from a run's controls evaluates
// every run as the original does (the unknown control the tag names
// aside, which no result carries).
func TestCatalogueOf(t *testing.T) {
	r := controlSample()
	got := CatalogueOf(r.Controls)
	want := controlCatalogue()
	want.Tags["@calls"] = []string{"LLM06:2025"}
	if diff := cmp.Diff(want, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("CatalogueOf mismatch (-want +got):\n%s", diff)
	}
	if CatalogueOf(nil) != nil {
		t.Error("CatalogueOf(nil) is not nil")
	}
}

// TestMergeControls: the merge of two shards evaluates the controls over
// the scenarios of both, with the catalogue the shards carry.
func TestMergeControls(t *testing.T) {
	whole := controlSample()
	a, b := controlSample(), controlSample()
	a.Shard, b.Shard = "1/2", "2/2"
	a.Scenarios, b.Scenarios = whole.Scenarios[:2], whole.Scenarios[2:]
	for _, r := range []*Result{a, b} {
		r.Tally()
		r.Controls = controlCatalogue().Evaluate(r)
	}
	merged, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(whole.Controls, merged.Controls); diff != "" {
		t.Errorf("merged controls mismatch (-want +got):\n%s", diff)
	}
}

func TestControlCounts(t *testing.T) {
	e, v, n := ControlCounts(controlSample().Controls)
	if e != 0 || v != 3 || n != 2 {
		t.Errorf("ControlCounts = %d, %d, %d; want 0, 3, 2", e, v, n)
	}
}

func ExampleCatalogue_Evaluate() {
	cat := &Catalogue{
		Controls: []Control{{ID: "CWE-436", Title: "Interpretation Conflict", Source: SourceCWE}},
		Features: map[string][]string{"duplicate_members.feature": {"CWE-436"}},
	}
	r := &Result{Scenarios: []Scenario{
		{ID: "features/duplicate_members.feature:7", Feature: "features/duplicate_members.feature", Status: Passed},
		{ID: "features/duplicate_members.feature:14", Feature: "features/duplicate_members.feature", Status: Failed},
	}}
	for _, cr := range cat.Evaluate(r) {
		fmt.Println(cr.ID, cr.Status, cr.Passed, cr.Failed, cr.Violations[0].Scenario)
	}
	// Output: CWE-436 violated 1 1 features/duplicate_members.feature:14
}

// levelledControlSample is controlSample as a run that certifies level
// safe: the approvals scenario is tagged @strict (strict only at safe,
// passed at strict), the escaped duplicate passes at safe and fails at
// strict, the rest ends alike at both levels; its controls are evaluated.
func levelledControlSample() *Result {
	r := controlSample()
	r.Level = LevelSafe
	for i := range r.Scenarios {
		sc := &r.Scenarios[i]
		sc.Levels = map[Level]Status{LevelSafe: sc.Status, LevelStrict: sc.Status}
		for j := range sc.Cases {
			sc.Cases[j].Levels = map[Level]Status{LevelSafe: sc.Cases[j].Status, LevelStrict: sc.Cases[j].Status}
		}
		switch sc.ID {
		case callsID:
			sc.Tags = append(sc.Tags, StrictTag)
			sc.Status, sc.Levels = StrictOnly, map[Level]Status{LevelSafe: StrictOnly, LevelStrict: Passed}
		case dupEscapedID:
			sc.Status, sc.Levels[LevelSafe] = Passed, Passed
			sc.Evidence[0].Level = LevelStrict
		}
	}
	r.Tally()
	r.Controls = controlCatalogue().Evaluate(r)
	return r
}

// TestCatalogueEvaluateLevels: a control's Status, counts and violations
// are the certified level's; Levels says its state at each level, from
// the statuses there, so that a control only @strict scenarios give
// evidence for is evidenced at level strict only.
func TestCatalogueEvaluateLevels(t *testing.T) {
	r := levelledControlSample()
	var got []string
	for _, cr := range r.Controls {
		line := fmt.Sprintf("%s %s %d/%d", cr.ID, cr.Status, cr.Passed, cr.Failed)
		for _, cl := range cr.Levels {
			line += fmt.Sprintf(" | %s %s %d/%d", cl.Level, cl.Status, cl.Passed, cl.Failed)
		}
		got = append(got, line)
	}
	want := []string{
		"RFC8259-4 evidenced 3/0 | safe evidenced 3/0 | strict violated 2/1",
		"CWE-436 evidenced 3/0 | safe evidenced 3/0 | strict violated 2/1",
		"CWE-20 violated 0/1 | safe violated 0/1 | strict violated 0/1",
		"LLM06:2025 not_exercised 0/0 | safe not_exercised 0/0 | strict evidenced 1/0",
		"JSONSchema-2020-12-validation-7 not_exercised 0/0 | safe not_exercised 0/0 | strict not_exercised 0/0",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("controls (-want +got):\n%s", diff)
	}
	if got, want := r.Controls[3].levelsText(), "level safe: not exercised; level strict: evidenced"; got != want {
		t.Errorf("levelsText of LLM06 = %q, want %q", got, want)
	}
	if got := r.Controls[2].levelsText(); got != "" {
		t.Errorf("levelsText of a control alike at both levels = %q, want none", got)
	}
	merged, err := Merge(r)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r.Controls, merged.Controls); diff != "" {
		t.Errorf("Merge evaluates the controls per level otherwise (-run +merged):\n%s", diff)
	}
}
