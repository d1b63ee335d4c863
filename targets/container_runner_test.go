package targets_test

import (
	"testing"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/targets"
)

// TestContainerRunsFeature runs a built-in feature through the runner
// against the reference adapter in containers, two lanes at once.
func TestContainerRunsFeature(t *testing.T) {
	image := targets.AdapterImageForTest(t)
	adapter, err := targets.NewContainer(image)
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(t.Context(), runner.Config{
		Features:     toolcert.Features(),
		FeaturePaths: []string{"features/closed_objects.feature"},
		Fixtures:     toolcert.Fixtures(),
		Concurrency:  2,
		Target:       adapter,
		Profile:      targets.DefaultProfile(),
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.Summary.Failed != 0 || res.Summary.Passed == 0 {
		for _, s := range res.Scenarios {
			t.Logf("%s: %s %s", s.Name, s.Status, s.Error)
		}
		t.Errorf("%d passed, %d failed; want every scenario to pass", res.Summary.Passed, res.Summary.Failed)
	}
	t.Logf("%s: %d scenarios passed against %s", "closed_objects.feature", res.Summary.Passed, res.Target)
}

// TestContainerCatchesMutant: the harness fails through the container
// driver too. The duplicate-last-wins mutant, run as a container, fails
// the duplicate-member scenarios.
func TestContainerCatchesMutant(t *testing.T) {
	image := targets.MutantImageForTest(t)
	mutant, err := targets.NewContainer(image, targets.WithContainerCmd("--mutant", "duplicate-last-wins"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(t.Context(), runner.Config{
		Features:     toolcert.Features(),
		FeaturePaths: []string{"features/duplicate_members.feature"},
		Fixtures:     toolcert.Fixtures(),
		Concurrency:  2,
		Target:       mutant,
		Profile:      targets.DefaultProfile(),
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	want := reports.ScenarioID("features/duplicate_members.feature", "a plain duplicate member is rejected at the parse gate")
	for _, s := range res.Scenarios {
		if s.ID == want {
			if s.Status != reports.Failed {
				t.Errorf("%s: %s against %s, want failed", want, s.Status, res.Target)
			}
			return
		}
	}
	t.Errorf("the run has no scenario %q", want)
}
