package target_test

import (
	"testing"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/target"
)

// TestContainerRunsFeature runs a built-in feature through the runner
// against the reference adapter in containers, two lanes at once.
func TestContainerRunsFeature(t *testing.T) {
	image := target.AdapterImageForTest(t)
	adapter, err := target.NewContainer(image)
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(t.Context(), runner.Config{
		Features:     toolcert.Features(),
		FeaturePaths: []string{"features/closed_objects.feature"},
		Fixtures:     toolcert.Fixtures(),
		Concurrency:  2,
		Target:       adapter,
		Profile:      target.DefaultProfile(),
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
