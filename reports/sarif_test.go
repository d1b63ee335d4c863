package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
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
		"toolcert/skipped features/leaks.feature:9",
		"toolcert/not-applicable " + naID,
	}
	if diff := cmp.Diff(want, sarifFindings(doc)); diff != "" {
		t.Errorf("results mismatch (-want +got):\n%s", diff)
	}
	if inv := run.Invocations; len(inv) != 1 || inv[0].ExecutionSuccessful == nil || *inv[0].ExecutionSuccessful {
		t.Errorf("invocations = %+v, want one, not successful", inv)
	}
	if p := run.Properties; p.Seed != 42 || p.Target != "in-process reference" || p.Summary != sample().Summary {
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
				"toolcert/skipped features/leaks.feature:9",
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
