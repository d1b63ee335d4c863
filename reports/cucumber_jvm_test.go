package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// jvmSample is a result whose feature file the model knows: a feature
// tag in column 3, a scenario tag, and steps.
func jvmSample() *Result {
	return &Result{Scenarios: []Scenario{{
		Feature: "features/r20.feature", Name: "one unexpected property", Status: Passed, Tags: []string{"@r20", "@fast"}, Line: 4,
		Gherkin: &Gherkin{Keyword: "Scenario", Tags: []Tag{{Name: "@r20", Line: 1, Column: 3}, {Name: "@fast", Line: 3}},
			Feature: GherkinFeature{Keyword: "Feature", Name: "R20", Line: 2, Tags: []Tag{{Name: "@r20", Line: 1, Column: 3}}}},
		Steps: []Step{{Keyword: "Then", Text: "the call is refused", Status: Passed, Duration: Duration(time.Millisecond), Line: 5}},
	}}}
}

// TestCucumberJVMSaysWhatCucumberJSONSays: both forms hold the same
// features, elements, steps, statuses and messages; only their shape
// differs.
func TestCucumberJVMSaysWhatCucumberJSONSays(t *testing.T) {
	interrupted := sample()
	interrupted.Summary.Interrupted = true
	baselined := sample()
	baselined.Scenarios[1].Baseline = ExpectedFailure
	baselined.Scenarios[0].Baseline = UnexpectedPass
	tests := []struct {
		name, why string
		r         *Result
	}{
		{"sample", "passes, a failure with evidence and cases, a skip, a scenario not applicable", sample()},
		{"interrupted", "the interrupted run's feature comes last in both", interrupted},
		{"baselined", "baseline marks turn statuses the same way in both", baselined},
		{"gherkin", "the feature file's lines and the scenario's tags are the same in both", jvmSample()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			js := parseCucumberForm(t, CucumberJSON, tt.r)
			jvm := parseCucumberForm(t, CucumberJVM, tt.r)
			if diff := cmp.Diff(js, jvm); diff != "" {
				t.Errorf("%s\ncucumber-jvm differs from cucumber-js (-js +jvm):\n%s", tt.why, diff)
			}
		})
	}
}

// jvmDoc is cucumber-jvm's JSON with every object's keys kept raw, to see
// which keys each object has.
type jvmDoc []struct {
	Tags     []map[string]json.RawMessage `json:"tags"`
	Elements []struct {
		Tags  []map[string]json.RawMessage `json:"tags"`
		Steps []map[string]json.RawMessage `json:"steps"`
	} `json:"elements"`
}

// TestCucumberJVMShape: the differences from the cucumber-js form, one by
// one, each a reason the cucumber-jvm schema gives for refusing that form.
func TestCucumberJVMShape(t *testing.T) {
	var buf bytes.Buffer
	if err := CucumberJVM(&buf, jvmSample()); err != nil {
		t.Fatal(err)
	}
	var doc jvmDoc
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("cucumber-jvm.json does not parse: %v\n%s", err, buf.String())
	}
	e := doc[0].Elements[0]
	got := map[string]string{
		"feature tag":  string(mustJSON(t, doc[0].Tags)),
		"scenario tag": fmt.Sprint(slices.Sorted(maps.Keys(e.Tags[0]))),
		"step":         fmt.Sprint(slices.Sorted(maps.Keys(e.Steps[0]))),
	}
	want := map[string]string{
		// cucumber-jvm writes a feature's tag with its type and location
		// (keys sorted here: the test re-encodes a map).
		"feature tag": `[{"location":{"line":1,"column":3},"name":"@r20","type":"Tag"}]`,
		// A scenario's tag has its name only: no line.
		"scenario tag": "[name]",
		// A step has no arguments.
		"step": "[keyword line name result]",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cucumber-jvm shape (-want +got):\n%s", diff)
	}
}

// mustJSON re-encodes v compactly.
func mustJSON(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func TestCucumberJVMHostileText(t *testing.T) {
	r := sample()
	r.Scenarios[1].Error += hostile
	r.Scenarios[1].Evidence[0].Message += hostile
	r.Scenarios[1].Cases[1].Evidence[0].Message += hostile
	renderInertJSON(t, "cucumber-jvm.json", CucumberJVM, r)
}

func ExampleCucumberJVM() {
	r := &Result{Scenarios: []Scenario{{
		Feature: "features/r20.feature", Name: "one unexpected property", Status: Passed, Tags: []string{"@r20"}, Line: 4,
		Gherkin: &Gherkin{Keyword: "Scenario", Tags: []Tag{{Name: "@r20", Line: 1, Column: 1}},
			Feature: GherkinFeature{Keyword: "Feature", Name: "R20", Line: 2, Tags: []Tag{{Name: "@r20", Line: 1, Column: 1}}}},
		Steps: []Step{{Keyword: "Then", Text: "the call is refused", Status: Passed, Duration: Duration(time.Millisecond), Line: 5}},
	}}}
	if err := CucumberJVM(os.Stdout, r); err != nil {
		fmt.Println(err)
	}
	// Output:
	// [
	//   {
	//     "uri": "features/r20.feature",
	//     "id": "r20",
	//     "keyword": "Feature",
	//     "name": "R20",
	//     "description": "",
	//     "line": 2,
	//     "tags": [
	//       {
	//         "name": "@r20",
	//         "type": "Tag",
	//         "location": {
	//           "line": 1,
	//           "column": 1
	//         }
	//       }
	//     ],
	//     "elements": [
	//       {
	//         "id": "r20;one-unexpected-property",
	//         "keyword": "Scenario",
	//         "type": "scenario",
	//         "name": "one unexpected property",
	//         "description": "",
	//         "line": 4,
	//         "tags": [
	//           {
	//             "name": "@r20"
	//           },
	//           {
	//             "name": "@level:strict"
	//           }
	//         ],
	//         "steps": [
	//           {
	//             "keyword": "Then ",
	//             "name": "the call is refused",
	//             "line": 5,
	//             "result": {
	//               "status": "passed",
	//               "duration": 1000000
	//             }
	//           }
	//         ]
	//       }
	//     ]
	//   }
	// ]
}
