package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ctrfDoc mirrors the CTRF schema's properties that toolcert may emit,
// independently of the renderer's own types: decoding with unknown fields
// disallowed proves nothing outside "extra" strays from the schema.
type ctrfDoc struct {
	ReportFormat string `json:"reportFormat"`
	SpecVersion  string `json:"specVersion"`
	Results      struct {
		Tool struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"tool"`
		Summary struct {
			Tests    *int   `json:"tests"`
			Passed   *int   `json:"passed"`
			Failed   *int   `json:"failed"`
			Pending  *int   `json:"pending"`
			Skipped  *int   `json:"skipped"`
			Other    *int   `json:"other"`
			Start    *int64 `json:"start"`
			Stop     *int64 `json:"stop"`
			Duration int64  `json:"duration"`
		} `json:"summary"`
		Tests       []ctrfDocTest `json:"tests"`
		Environment struct {
			AppName string `json:"appName"`
		} `json:"environment"`
		Extra map[string]any `json:"extra"`
	} `json:"results"`
}

type ctrfDocTest struct {
	Name      string   `json:"name"`
	Status    string   `json:"status"`
	Duration  *int64   `json:"duration"`
	Suite     []string `json:"suite"`
	Message   string   `json:"message"`
	Trace     string   `json:"trace"`
	RawStatus string   `json:"rawStatus"`
	Tags      []string `json:"tags"`
	Type      string   `json:"type"`
	FilePath  string   `json:"filePath"`
	Line      int      `json:"line"`
	Steps     []struct {
		Name   string         `json:"name"`
		Status string         `json:"status"`
		Extra  map[string]any `json:"extra"`
	} `json:"steps"`
	Extra map[string]any `json:"extra"`
}

// parseCTRF renders r, parses it back strictly and checks the schema's
// required fields, and that the summary counts the tests by status.
func parseCTRF(tb testing.TB, r *Result) ctrfDoc {
	tb.Helper()
	var buf bytes.Buffer
	if err := CTRF(&buf, r); err != nil {
		tb.Fatalf("CTRF: %v", err)
	}
	dec := json.NewDecoder(&buf)
	dec.DisallowUnknownFields()
	var doc ctrfDoc
	if err := dec.Decode(&doc); err != nil {
		tb.Fatalf("ctrf.json does not parse as CTRF: %v", err)
	}
	s := doc.Results.Summary
	if doc.ReportFormat != "CTRF" || doc.SpecVersion != "0.0.0" || doc.Results.Tool.Name == "" || doc.Results.Tests == nil ||
		s.Tests == nil || s.Passed == nil || s.Failed == nil || s.Pending == nil || s.Skipped == nil || s.Other == nil || s.Start == nil || s.Stop == nil {
		tb.Fatalf("ctrf.json lacks a required field: %+v", doc)
	}
	count := map[string]int{}
	for _, test := range doc.Results.Tests {
		if test.Name == "" || test.Duration == nil || (test.Suite != nil && len(test.Suite) == 0) {
			tb.Errorf("test %q lacks a name or duration, or has an empty suite", test.Name)
		}
		count[test.Status]++
	}
	got := map[string]int{"passed": *s.Passed, "failed": *s.Failed, "pending": *s.Pending, "skipped": *s.Skipped, "other": *s.Other}
	want := map[string]int{"passed": count["passed"], "failed": count["failed"], "pending": count["pending"], "skipped": count["skipped"], "other": count["other"]}
	if diff := cmp.Diff(want, got); diff != "" || *s.Tests != len(doc.Results.Tests) || len(count) > len(want) {
		tb.Errorf("summary of %d tests does not count the tests by status %v (-want +got):\n%s", *s.Tests, count, diff)
	}
	return doc
}

func TestCTRFParses(t *testing.T) {
	doc := parseCTRF(t, sample())
	var got []string
	for _, test := range doc.Results.Tests {
		got = append(got, fmt.Sprintf("%s | %s | %s | %v", test.Type, test.Name, test.Status, test.Suite))
	}
	want := []string{
		"scenario | an extra top-level property is rejected | passed | [features/closed_objects.feature]",
		"scenario | a message is never forwarded | failed | [features/leaks.feature]",
		"generated-case | a message is never forwarded › run_status/failed/extra_property | passed | [features/leaks.feature]",
		"generated-case | a message is never forwarded › run_status/failed/nan/attempt | failed | [features/leaks.feature]",
		"scenario | pending | skipped | [features/leaks.feature]",
		"scenario | " + strictOnlyName + " | other | [features/reject_gates.feature]",
		"scenario | the audit event carries the request id | other | [features/request_ids.feature]",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tests (-want +got):\n%s", diff)
	}
	s := doc.Results.Summary
	if *s.Start != 1795968000000 || *s.Stop != 1795968001500 {
		t.Errorf("summary start, stop = %d, %d; want the run's start and end in ms", *s.Start, *s.Stop)
	}
	c := doc.Results.Tests[3]
	for _, key := range []string{"reproducer", "operator", "tool", "field"} {
		if _, ok := c.Extra[key]; !ok {
			t.Errorf("case extra lacks %q: %v", key, c.Extra)
		}
	}
	if !strings.Contains(c.Trace, "reproduce: toolcert run --case") || c.Message != "the agent saw success" {
		t.Errorf("failed case message %q, trace %q: want its evidence and reproducer", c.Message, c.Trace)
	}
	if x := doc.Results.Extra; x["seed"] != 42.0 || x["leaks"] != 1.0 || x["target"] != "in-process reference" {
		t.Errorf("results.extra = %v, want the run's seed, target and counts", x)
	}
}

// ctrfNotApplicable is the not-applicable scenario of sample() as
// TestCTRFBaseline views a test: "other", the model's status in rawStatus,
// the reason in the message.
const ctrfNotApplicable = "other | " + string(NotApplicable) + " | " + notApplicablePrefix + naReason

// ctrfStrictOnly is the strict-only scenario of sample() as
// TestCTRFBaseline views a test: "other", the model's status in rawStatus,
// the message saying that level safe does not judge it.
const ctrfStrictOnly = "other | " + string(StrictOnly) + " | " + strictOnlyMessage + " (level strict: failed)"

func TestCTRFBaseline(t *testing.T) {
	tests := []struct {
		name string
		why  string
		edit func(*Result)
		want []string // status | rawStatus | message of each test
	}{{
		name: "unmarked",
		why:  "without a baseline the model's statuses go through",
		edit: func(*Result) {},
		want: []string{"passed |  | ", "failed |  | canary leaked", "passed |  | ",
			"failed |  | the agent saw success", "skipped |  | " + skipIsNoPass, ctrfStrictOnly, ctrfNotApplicable},
	}, {
		name: "expected failures",
		why:  "a failure the baseline lists is skipped, saying why; rawStatus keeps the failure",
		edit: func(r *Result) {
			r.Scenarios[1].Baseline = ExpectedFailure
			r.Scenarios[1].Cases[1].Baseline = ExpectedFailure
		},
		want: []string{"passed |  | ", "skipped | failed | " + xfailPrefix + "canary leaked", "passed |  | ",
			"skipped | failed | " + xfailPrefix + "the agent saw success", "skipped |  | " + skipIsNoPass, ctrfStrictOnly, ctrfNotApplicable},
	}, {
		name: "unexpected passes",
		why:  "a pass the baseline lists as failing fails until the entry is removed",
		edit: func(r *Result) {
			r.Scenarios[0].Baseline = UnexpectedPass
			r.Scenarios[1].Cases[0].Baseline = UnexpectedPass
		},
		want: []string{"failed | passed | " + xpassMessage, "failed |  | canary leaked", "failed | passed | " + xpassMessage,
			"failed |  | the agent saw success", "skipped |  | " + skipIsNoPass, ctrfStrictOnly, ctrfNotApplicable},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := sample()
			tc.edit(r)
			var got []string
			for _, test := range parseCTRF(t, r).Results.Tests {
				got = append(got, test.Status+" | "+test.RawStatus+" | "+test.Message)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\ntests (-want +got):\n%s", tc.why, diff)
			}
		})
	}
}

func TestCTRFInterrupted(t *testing.T) {
	r := sample()
	r.Summary.Interrupted = true
	if x := parseCTRF(t, r).Results.Extra; x["interrupted"] != true {
		t.Errorf("results.extra = %v, want interrupted true", x)
	}
	if x := parseCTRF(t, sample()).Results.Extra; x["interrupted"] != nil {
		t.Errorf("results.extra = %v, want no interrupted for a whole run", x)
	}
}

func TestCTRFHostileText(t *testing.T) {
	r := sample()
	r.Scenarios[1].Error = hostile + "\nsecond line"
	r.Scenarios[1].Evidence[0].Message += hostile
	r.Scenarios[1].Cases[1].Evidence[0].Message = hostile
	renderInertJSON(t, "ctrf.json", CTRF, r)
	tests := parseCTRF(t, r).Results.Tests
	const back = hostileBack
	if tests[1].Message != back || strings.Count(tests[1].Trace, back) != 2 || tests[3].Message != back {
		t.Errorf("hostile text did not survive escaping: message %q, trace %q, case message %q",
			tests[1].Message, tests[1].Trace, tests[3].Message)
	}
}

func ExampleCTRF() {
	r := &Result{Tool: "toolcert", Version: "v1.0.0", Seed: 7, Scenarios: []Scenario{
		{Feature: "features/r20.feature", Name: "one unexpected property", Status: Passed},
	}}
	r.Tally()
	if err := CTRF(os.Stdout, r); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {
	//   "reportFormat": "CTRF",
	//   "specVersion": "0.0.0",
	//   "results": {
	//     "tool": {
	//       "name": "toolcert",
	//       "version": "v1.0.0"
	//     },
	//     "summary": {
	//       "tests": 1,
	//       "passed": 1,
	//       "failed": 0,
	//       "pending": 0,
	//       "skipped": 0,
	//       "other": 0,
	//       "start": 0,
	//       "stop": 0,
	//       "duration": 0
	//     },
	//     "tests": [
	//       {
	//         "name": "one unexpected property",
	//         "status": "passed",
	//         "duration": 0,
	//         "suite": [
	//           "features/r20.feature"
	//         ],
	//         "type": "scenario",
	//         "filePath": "features/r20.feature",
	//         "extra": {
	//           "id": "",
	//           "lane": 0
	//         }
	//       }
	//     ],
	//     "extra": {
	//       "seed": 7,
	//       "target": "",
	//       "level": "strict",
	//       "upstream_requests": 0,
	//       "leaks": 0,
	//       "marks": 0,
	//       "blocked": 0,
	//       "blocked_requests": 0,
	//       "not_applicable": 0,
	//       "strict_only": 0,
	//       "cases_strict_only": 0,
	//       "expected_failures": 0,
	//       "cases_expected": 0,
	//       "unexpected_passes": 0,
	//       "target_restarts": 0
	//     }
	//   }
	// }
}
