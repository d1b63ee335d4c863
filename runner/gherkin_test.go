package runner_test

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/targets"
)

// linesFirst is parsed before linesFeature, so that godog's AST node IDs
// of the second file do not start at 0.
const linesFirst = `Feature: first
  Scenario: a plain call
    When the agent calls "review_status" with {"change_id": "CR-1042"}
`

// linesFeature has a description, feature and scenario tags, a
// background, and an outline with tagged examples: each line below is
// asserted by TestRunRecordsLines.
const linesFeature = `@feat
Feature: lines
  A description
  on two lines.

  Background:
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved.json"

  @one @two
  Scenario: an extra property is rejected
    And the upstream adds the property "admin_override" carrying a canary
    When the agent calls "review_status" with {"change_id": "CR-1042"}

  Scenario Outline: the property <name> is rejected
    And the upstream adds the property "<name>" carrying a canary
    When the agent calls "review_status" with {"change_id": "CR-1042"}

    @rows
    Examples:
      | name  |
      | x_one |
      | x_two |
`

// TestRunRecordsLines: every scenario and step of a run carries its line
// in its feature file, and the scenario its feature's title, description
// and tags and its own tags with their lines, as cucumber JSON needs them.
func TestRunRecordsLines(t *testing.T) {
	res, err := runner.Run(context.Background(), runner.Config{
		Features: fstest.MapFS{
			"a/first.feature": {Data: []byte(linesFirst)},
			"b/lines.feature": {Data: []byte(linesFeature)},
		},
		FeaturePaths: []string{"a", "b"},
		Fixtures:     toolcert.Fixtures(), Target: reference.InProcess(), Profile: targets.DefaultProfile(),
	})
	if err != nil {
		t.Fatal(err)
	}
	feature := reports.GherkinFeature{Keyword: "Feature", Name: "lines", Description: "  A description\n  on two lines.",
		Line: 2, Tags: []reports.Tag{{Name: "@feat", Line: 1, Column: 1}}}
	type got struct {
		Line    int
		Gherkin *reports.Gherkin
		Steps   []int
	}
	want := map[string]got{
		"a plain call": {Line: 2, Steps: []int{3},
			Gherkin: &reports.Gherkin{Keyword: "Scenario", Feature: reports.GherkinFeature{Keyword: "Feature", Name: "first", Line: 1}}},
		"an extra property is rejected": {Line: 10, Steps: []int{7, 11, 12}, Gherkin: &reports.Gherkin{Keyword: "Scenario",
			Tags: []reports.Tag{{Name: "@feat", Line: 1}, {Name: "@one", Line: 9}, {Name: "@two", Line: 9}}, Feature: feature}},
		"the property x_one is rejected": {Line: 14, Steps: []int{7, 15, 16}, Gherkin: &reports.Gherkin{Keyword: "Scenario Outline",
			Row: 21, Tags: []reports.Tag{{Name: "@feat", Line: 1}, {Name: "@rows", Line: 18}}, Feature: feature}},
		"the property x_two is rejected": {Line: 14, Steps: []int{7, 15, 16}, Gherkin: &reports.Gherkin{Keyword: "Scenario Outline",
			Row: 22, Tags: []reports.Tag{{Name: "@feat", Line: 1}, {Name: "@rows", Line: 18}}, Feature: feature}},
	}
	if len(res.Scenarios) != len(want) {
		t.Fatalf("%d scenarios, want %d: %+v", len(res.Scenarios), len(want), res.Scenarios)
	}
	for _, sc := range res.Scenarios {
		g := got{Line: sc.Line, Gherkin: sc.Gherkin}
		for _, st := range sc.Steps {
			g.Steps = append(g.Steps, st.Line)
		}
		if diff := cmp.Diff(want[sc.Name], g); diff != "" {
			t.Errorf("scenario %q: lines (-want +got):\n%s", sc.Name, diff)
		}
	}
}
