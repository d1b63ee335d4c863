package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifDoc mirrors the fields of a SARIF 2.1.0 log that the schema requires
// and that code-scanning dashboards read.
type sarifDoc struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  string `json:"name"`
				Rules []struct {
					ID               string `json:"id"`
					ShortDescription struct {
						Text string `json:"text"`
					} `json:"shortDescription"`
					Help struct {
						Text string `json:"text"`
					} `json:"help"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Invocations []struct {
			ExecutionSuccessful *bool `json:"executionSuccessful"`
			Notifications       []struct {
				Message struct {
					Text string `json:"text"`
				} `json:"message"`
			} `json:"toolExecutionNotifications"`
		} `json:"invocations"`
		Results    []sarifDocResult `json:"results"`
		Properties struct {
			Seed    uint64  `json:"seed"`
			Target  string  `json:"target"`
			Summary Summary `json:"summary"`
		} `json:"properties"`
	} `json:"runs"`
}

type sarifDocResult struct {
	RuleID    string `json:"ruleId"`
	RuleIndex int    `json:"ruleIndex"`
	Kind      string `json:"kind"`
	Level     string `json:"level"`
	Message   struct {
		Text string `json:"text"`
	} `json:"message"`
	Locations []struct {
		PhysicalLocation struct {
			ArtifactLocation struct {
				URI       string `json:"uri"`
				URIBaseID string `json:"uriBaseId"`
			} `json:"artifactLocation"`
		} `json:"physicalLocation"`
	} `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Suppressions        []struct {
		Kind          string `json:"kind"`
		Justification string `json:"justification"`
	} `json:"suppressions"`
	Properties map[string]string `json:"properties"`
}

// renderSARIF renders r and decodes it back.
func renderSARIF(tb testing.TB, r *Result) (sarifDoc, []byte) {
	tb.Helper()
	var buf bytes.Buffer
	if err := SARIF(&buf, r); err != nil {
		tb.Fatalf("SARIF: %v", err)
	}
	var doc sarifDoc
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		tb.Fatalf("results.sarif does not parse: %v\n%s", err, buf.String())
	}
	if len(doc.Runs) != 1 {
		tb.Fatalf("results.sarif has %d runs, want 1", len(doc.Runs))
	}
	return doc, buf.Bytes()
}

// sarifFindings lists the results as "ruleId scenarioId caseId" plus
// " suppressed" when they are.
func sarifFindings(doc sarifDoc) []string {
	var out []string
	for _, res := range doc.Runs[0].Results {
		s := strings.Join(strings.Fields(res.RuleID+" "+res.Properties["scenarioId"]+" "+res.Properties["caseId"]), " ")
		if len(res.Suppressions) > 0 {
			s += " suppressed"
		}
		out = append(out, s)
	}
	return out
}

func TestSARIFParses(t *testing.T) {
	doc, _ := renderSARIF(t, sample())
	if doc.Schema != sarifSchema || doc.Version != "2.1.0" {
		t.Errorf("$schema, version = %q, %q", doc.Schema, doc.Version)
	}
	run := doc.Runs[0]
	if run.Tool.Driver.Name != "toolcert" {
		t.Errorf("driver name = %q, want toolcert", run.Tool.Driver.Name)
	}
	rules := map[string]int{}
	for i, rule := range run.Tool.Driver.Rules {
		if rule.ID == "" || rule.ShortDescription.Text == "" || rule.Help.Text == "" {
			t.Errorf("rule %d lacks an id, a short description or help: %+v", i, rule)
		}
		rules[rule.ID] = i
	}
	for _, res := range run.Results {
		if i, ok := rules[res.RuleID]; !ok || i != res.RuleIndex {
			t.Errorf("result %s: ruleIndex %d does not name its rule", res.RuleID, res.RuleIndex)
		}
		if res.Message.Text == "" || len(res.Locations) != 1 || res.PartialFingerprints[sarifFingerprint] == "" {
			t.Errorf("result %s lacks a message, a location or a fingerprint: %+v", res.RuleID, res)
		}
		feature, _, _ := strings.Cut(res.Properties["scenarioId"], ":")
		if loc := res.Locations[0].PhysicalLocation.ArtifactLocation; loc.URI != feature || loc.URIBaseID != "%SRCROOT%" {
			t.Errorf("result %s located at %+v, want %s", res.RuleID, loc, feature)
		}
	}
	want := []string{
		"toolcert/scenario-failed features/leaks.feature:3",
		"toolcert/leak features/leaks.feature:3",
		"toolcert/case-failed features/leaks.feature:3 run_status/failed/nan/attempt",
		"toolcert/mark features/leaks.feature:3 run_status/failed/nan/attempt",
		"toolcert/skipped features/leaks.feature:9",
		"toolcert/strict-only " + strictOnlyID,
		"toolcert/not-applicable " + naID,
	}
	if diff := cmp.Diff(want, sarifFindings(doc)); diff != "" {
		t.Errorf("results mismatch (-want +got):\n%s", diff)
	}
	if inv := run.Invocations; len(inv) != 1 || inv[0].ExecutionSuccessful == nil || *inv[0].ExecutionSuccessful {
		t.Errorf("invocations = %+v, want one, not successful", inv)
	}
	if p := run.Properties; p.Seed != 42 || p.Target != "in-process reference" || !reflect.DeepEqual(p.Summary, sample().Summary) {
		t.Errorf("run properties = %+v", p)
	}
}

func TestSARIFFindings(t *testing.T) {
	tests := []struct {
		name       string
		edit       func(r *Result)
		want       []string
		successful bool
	}{
		{
			name: "a baseline that expects every failure suppresses them and keeps the skip",
			edit: func(r *Result) {
				(&Baseline{Scenarios: []Expected{{ID: "features/leaks.feature:3"}}, Cases: []Expected{{ID: "run_status/failed/nan/attempt"}}}).Apply(r)
			},
			want: []string{
				"toolcert/scenario-failed features/leaks.feature:3 suppressed",
				"toolcert/leak features/leaks.feature:3 suppressed",
				"toolcert/case-failed features/leaks.feature:3 run_status/failed/nan/attempt suppressed",
				"toolcert/mark features/leaks.feature:3 run_status/failed/nan/attempt suppressed",
				"toolcert/skipped features/leaks.feature:9",
				"toolcert/strict-only " + strictOnlyID,
				"toolcert/not-applicable " + naID,
			},
		},
		{
			name: "a listed pass is an unexpected pass, of a scenario and of a case",
			edit: func(r *Result) {
				r.Scenarios = r.Scenarios[:1]
				r.Scenarios[0].Cases = []Case{{ID: "t/op", Tool: "t", Operator: "op", Status: Passed}}
				(&Baseline{Scenarios: []Expected{{ID: "features/closed_objects.feature:7"}}, Cases: []Expected{{ID: "t/op"}}}).Apply(r)
			},
			want: []string{
				"toolcert/unexpected-pass features/closed_objects.feature:7",
				"toolcert/unexpected-pass features/closed_objects.feature:7 t/op",
			},
		},
		{
			name:       "a run of passes has no result and succeeds",
			edit:       func(r *Result) { r.Scenarios = r.Scenarios[:1]; r.Tally() },
			successful: true,
		},
		{
			name: "an interrupted run does not succeed, even with no failure",
			edit: func(r *Result) {
				r.Scenarios = r.Scenarios[:1]
				r.Summary.Interrupted = true
				r.Tally()
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := sample()
			tt.edit(r)
			doc, raw := renderSARIF(t, r)
			if diff := cmp.Diff(tt.want, sarifFindings(doc)); diff != "" {
				t.Errorf("results mismatch (-want +got):\n%s", diff)
			}
			if got := *doc.Runs[0].Invocations[0].ExecutionSuccessful; got != tt.successful {
				t.Errorf("executionSuccessful = %v, want %v", got, tt.successful)
			}
			if !bytes.Contains(raw, []byte(`"results": [`)) {
				t.Errorf("results is not an array:\n%s", raw)
			}
			if r.Summary.Interrupted && len(doc.Runs[0].Invocations[0].Notifications) == 0 {
				t.Error("an interrupted run has no notification saying so")
			}
		})
	}
}

// TestSARIFFingerprintsIgnoreSeed checks that a finding keeps its
// fingerprint when the seed, and so the canaries, change, and that no two
// results share one.
func TestSARIFFingerprintsIgnoreSeed(t *testing.T) {
	fingerprints := func(r *Result) []string {
		doc, _ := renderSARIF(t, r)
		var out []string
		for _, res := range doc.Runs[0].Results {
			out = append(out, res.PartialFingerprints[sarifFingerprint])
		}
		return out
	}
	want := fingerprints(sample())
	r := sample()
	r.Seed = 7
	leak := &r.Scenarios[1].Evidence[0]
	leak.Canary, leak.Message = "tcy", strings.ReplaceAll(leak.Message, "tcx", "tcy")
	if diff := cmp.Diff(want, fingerprints(r)); diff != "" {
		t.Errorf("fingerprints depend on the seed (-want +got):\n%s", diff)
	}
	r.Scenarios[1].Evidence = append(r.Scenarios[1].Evidence, *leak)
	got := fingerprints(r)
	seen := map[string]bool{}
	for _, f := range got {
		if seen[f] {
			t.Errorf("fingerprint %s is shared by two results: %v", f, got)
		}
		seen[f] = true
	}
}

func TestSARIFHostileText(t *testing.T) {
	r := sample()
	r.Scenarios[1].Error += hostile + strings.Repeat("another line\n", 1000)
	r.Scenarios[1].Evidence[0].Message += hostile
	doc, raw := renderSARIF(t, r)
	if !utf8.Valid(raw) || bytes.Contains(raw, []byte("<script")) {
		t.Errorf("results.sarif holds invalid UTF-8 or a raw <script:\n%s", raw)
	}
	for _, res := range doc.Runs[0].Results {
		text := res.Message.Text
		if strings.ContainsRune(text, 0x1b) {
			t.Errorf("%s message keeps an ANSI escape: %q", res.RuleID, text)
		}
		if len(text) > sarifMaxBytes+64 {
			t.Errorf("%s message is %d bytes, want at most about %d", res.RuleID, len(text), sarifMaxBytes)
		}
	}
	if got := doc.Runs[0].Results[0].Message.Text; !strings.Contains(got, "(truncated)") {
		t.Errorf("a long error is not marked truncated: %q", got)
	}
}

func ExampleSARIF() {
	r := &Result{Tool: "toolcert", Version: "v1.0.0", Seed: 7, Target: "my-adapter", Scenarios: []Scenario{
		{ID: "features/r20.feature: one unexpected property", Feature: "features/r20.feature", Name: "one unexpected property",
			Status: Failed, Error: "the adapter accepted an unexpected property"},
	}}
	r.Tally()
	var b bytes.Buffer
	if err := SARIF(&b, r); err != nil {
		fmt.Println(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID  string `json:"ruleId"`
				Message struct{ Text string }
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		fmt.Println(err)
	}
	for _, res := range log.Runs[0].Results {
		fmt.Println(res.RuleID, "-", res.Message.Text)
	}
	// Output: toolcert/scenario-failed - Scenario "one unexpected property" failed: the adapter accepted an unexpected property
}

// sarifJSONSchema compiles the official SARIF 2.1.0 JSON schema (OASIS,
// errata 01) in testdata/schemas, with format assertions.
func sarifJSONSchema(tb testing.TB) *jsonschema.Schema {
	tb.Helper()
	f, err := os.Open(filepath.Join("testdata", "schemas", "sarif-schema-2.1.0.json"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		tb.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		tb.Fatal(err)
	}
	s, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		tb.Fatalf("compile the SARIF schema: %v", err)
	}
	return s
}

// TestSARIFMeetsSchema validates the log of passing and failing runs, with
// and without controls, against the official schema.
func TestSARIFMeetsSchema(t *testing.T) {
	schema := sarifJSONSchema(t)
	tests := []struct {
		name string
		res  func() *Result
	}{
		{"failing run", sample},
		{"failing run with a baseline", htmlFullSample},
		{"failing run with controls", controlSample},
		{"passing run with controls", func() *Result {
			r := controlSample()
			r.Scenarios[0].Status, r.Scenarios[2].Status = Passed, Passed
			r.Scenarios[3].Status, r.Scenarios[3].Cases[1].Status = Passed, Passed
			r.Tally()
			r.Controls = controlCatalogue().Evaluate(r)
			return r
		}},
		{"hostile text", htmlHostileSample},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, raw := renderSARIF(t, tt.res())
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(inst); err != nil {
				t.Errorf("results.sarif does not meet the SARIF 2.1.0 schema: %v", err)
			}
		})
	}
}

// TestSARIFSchemaCatchesInvalidLog shows that the schema check can fail:
// a log whose result has an unknown level is refused.
func TestSARIFSchemaCatchesInvalidLog(t *testing.T) {
	_, raw := renderSARIF(t, sample())
	bad := bytes.Replace(raw, []byte(`"level": "error"`), []byte(`"level": "fatal"`), 1)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(bad))
	if err != nil {
		t.Fatal(err)
	}
	if err := sarifJSONSchema(t).Validate(inst); err == nil {
		t.Error("a result of level \"fatal\" meets the schema; the check proves nothing")
	}
}

// sarifControlDoc mirrors what the log says of controls: the CWE
// taxonomy, each rule's relationships, each result's taxa and region.
type sarifControlDoc struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID            string `json:"id"`
					HelpURI       string `json:"helpUri"`
					Relationships []struct {
						Target sarifDocRef `json:"target"`
						Kinds  []string    `json:"kinds"`
					} `json:"relationships"`
					Properties struct {
						Status string `json:"status"`
					} `json:"properties"`
				} `json:"rules"`
				SupportedTaxonomies []struct {
					Name  string `json:"name"`
					Index int    `json:"index"`
				} `json:"supportedTaxonomies"`
			} `json:"driver"`
		} `json:"tool"`
		Taxonomies []struct {
			Name string `json:"name"`
			Taxa []struct {
				ID   string `json:"id"`
				Name string `json:"name"`
			} `json:"taxa"`
		} `json:"taxonomies"`
		Results []struct {
			RuleID    string        `json:"ruleId"`
			Taxa      []sarifDocRef `json:"taxa"`
			Locations []struct {
				PhysicalLocation struct {
					Region struct {
						StartLine int `json:"startLine"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			Suppressions []struct{} `json:"suppressions"`
			Properties   struct {
				ScenarioID string `json:"scenarioId"`
				CaseID     string `json:"caseId"`
				ControlID  string `json:"controlId"`
			} `json:"properties"`
		} `json:"results"`
		Properties struct {
			Controls struct {
				Evidenced    int `json:"evidenced"`
				Violated     int `json:"violated"`
				NotExercised int `json:"notExercised"`
			} `json:"controls"`
		} `json:"properties"`
	} `json:"runs"`
}

type sarifDocRef struct {
	ID            string `json:"id"`
	Index         int    `json:"index"`
	ToolComponent struct {
		Name  string `json:"name"`
		Index int    `json:"index"`
	} `json:"toolComponent"`
}

func (r sarifDocRef) String() string {
	return fmt.Sprintf("%s:%s#%d", r.ToolComponent.Name, r.ID, r.Index)
}

func refs(rs []sarifDocRef) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.String())
	}
	return strings.Join(out, " ")
}

// TestSARIFControls: the CWE weaknesses of the controls are the run's CWE
// taxonomy; each control's rule says its state and relates to its CWE
// taxa; each finding lists the taxa of the controls its scenario or case
// gives evidence for, at the scenario's line; a violated control is a
// result of its own, suppressed when the baseline expects every failure.
func TestSARIFControls(t *testing.T) {
	r := controlSample()
	(&Baseline{Cases: []Expected{{ID: nanCaseID}}}).Apply(r)
	r.Controls = controlCatalogue().Evaluate(r)
	_, raw := renderSARIF(t, r)
	var doc sarifControlDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	run := doc.Runs[0]
	if len(run.Taxonomies) != 1 || run.Taxonomies[0].Name != "CWE" || len(run.Tool.Driver.SupportedTaxonomies) != 1 ||
		run.Tool.Driver.SupportedTaxonomies[0].Name != "CWE" || run.Tool.Driver.SupportedTaxonomies[0].Index != 0 {
		t.Fatalf("taxonomies %+v, supported %+v; want the CWE alone", run.Taxonomies, run.Tool.Driver.SupportedTaxonomies)
	}
	var taxa []string
	for _, tx := range run.Taxonomies[0].Taxa {
		taxa = append(taxa, tx.ID+" "+tx.Name)
	}
	if diff := cmp.Diff([]string{"436 Interpretation Conflict", "20 Improper Input Validation"}, taxa); diff != "" {
		t.Errorf("CWE taxa mismatch (-want +got):\n%s", diff)
	}
	var rules []string
	for _, rule := range run.Tool.Driver.Rules {
		if !strings.HasPrefix(rule.ID, sarifControlRule) {
			continue
		}
		s := rule.ID + " " + rule.Properties.Status
		for _, rel := range rule.Relationships {
			s += " " + strings.Join(rel.Kinds, ",") + ":" + rel.Target.String()
		}
		rules = append(rules, s)
	}
	wantRules := []string{
		"toolcert/control/RFC8259-4 violated relevant:CWE:436#0",
		"toolcert/control/CWE-436 violated equal:CWE:436#0",
		"toolcert/control/CWE-20 violated equal:CWE:20#1",
		"toolcert/control/LLM06:2025 not_exercised",
		"toolcert/control/JSONSchema-2020-12-validation-7 not_exercised relevant:CWE:20#1",
	}
	if diff := cmp.Diff(wantRules, rules); diff != "" {
		t.Errorf("control rules mismatch (-want +got):\n%s", diff)
	}
	var results []string
	for _, res := range run.Results {
		s := fmt.Sprintf("%s %s%s%s line %d [%s]", res.RuleID, res.Properties.ScenarioID, strings.TrimSpace(" "+res.Properties.CaseID),
			strings.TrimSpace(" "+res.Properties.ControlID), res.Locations[0].PhysicalLocation.Region.StartLine, refs(res.Taxa))
		if len(res.Suppressions) > 0 {
			s += " suppressed"
		}
		results = append(results, s)
	}
	wantResults := []string{
		"toolcert/skipped " + callsID + " line 14 []",
		"toolcert/scenario-failed " + dupEscapedID + " line 14 [CWE:436#0]",
		"toolcert/scenario-failed " + variantsID + " line 16 [] suppressed",
		"toolcert/case-failed " + variantsID + nanCaseID + " line 16 [CWE:20#1] suppressed",
		"toolcert/control/RFC8259-4 " + dupEscapedID + "RFC8259-4 line 14 [CWE:436#0]",
		"toolcert/control/CWE-436 " + dupEscapedID + "CWE-436 line 14 [CWE:436#0]",
		"toolcert/control/CWE-20 " + variantsID + "CWE-20 line 16 [CWE:20#1] suppressed",
	}
	if diff := cmp.Diff(wantResults, results); diff != "" {
		t.Errorf("results mismatch (-want +got):\n%s", diff)
	}
	if c := run.Properties.Controls; c.Evidenced != 0 || c.Violated != 3 || c.NotExercised != 2 {
		t.Errorf("run's control counts = %+v, want 0 evidenced, 3 violated, 2 not exercised", c)
	}
}

// TestSARIFControlsGolden pins the whole log of a run with controls.
func TestSARIFControlsGolden(t *testing.T) {
	_, raw := renderSARIF(t, controlSample())
	golden := filepath.Join("testdata", "results-controls.sarif")
	if *update {
		if err := os.WriteFile(golden, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("read golden (run with -update to create): %v", err)
	}
	if diff := cmp.Diff(string(want), string(raw)); diff != "" {
		t.Errorf("results-controls.sarif mismatch (-want +got):\n%s", diff)
	}
}

// TestSARIFInvisibleText: bidirectional and other invisible characters in
// a finding, a scenario's name or a control's title are visible escapes
// (the one rule of every format, inert), never raw.
func TestSARIFInvisibleText(t *testing.T) {
	r := controlSample()
	r.Scenarios[2].Name += " \u202egnp.exe"
	r.Scenarios[2].Error += " \u200b\u2066x"
	r.Controls[0].Title += " \u202e"
	_, raw := renderSARIF(t, r)
	for _, c := range []rune{0x202e, 0x200b, 0x2066} {
		if bytes.ContainsRune(raw, c) {
			t.Errorf("results.sarif holds U+%04X raw", c)
		}
	}
	if !bytes.Contains(raw, []byte(`\\u202egnp.exe`)) {
		t.Errorf("the scenario's U+202E is not written as a visible escape:\n%s", raw)
	}
}
