package runner

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/reports"
)

// TestScenarioIDsDoNotDependOnHowFeaturesAreGiven: the built-in features,
// a folder holding them (nested or not) and one file give every scenario
// the same ID, so a baseline written from one run fits the others.
func TestScenarioIDsDoNotDependOnHowFeaturesAreGiven(t *testing.T) {
	dir := t.TempDir()
	nested := filepath.Join(dir, "sub", "one.feature")
	if err := os.MkdirAll(filepath.Dir(nested), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(nested, []byte(oneScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	ids := func(cfg Config) []string {
		t.Helper()
		cfg.Target = fakeTarget(hidesInHeader)
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, sc := range res.Scenarios {
			out = append(out, sc.ID)
		}
		slices.Sort(out)
		return out
	}
	at := func(path string) Config {
		t.Helper()
		fsys, paths, err := FeaturesAt(path)
		if err != nil {
			t.Fatal(err)
		}
		return Config{Features: fsys, FeaturePaths: paths}
	}
	want := []string{reports.ScenarioID("one.feature", "an extra property is rejected")}
	for name, cfg := range map[string]Config{"a folder": at(dir), "one file": at(nested)} {
		if diff := cmp.Diff(want, ids(cfg)); diff != "" {
			t.Errorf("%s: IDs (-want +got):\n%s", name, diff)
		}
	}
	builtin := ids(Config{FeaturePaths: []string{"features/text_tool.feature"}})
	if diff := cmp.Diff(builtin, ids(at("../features/text_tool.feature"))); diff != "" || len(builtin) == 0 {
		t.Errorf("built in and from a file: IDs (-built in +file):\n%s", diff)
	}
}
