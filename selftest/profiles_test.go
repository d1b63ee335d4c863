package selftest_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolcert/toolcert/adapters/mutant"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/targets"
)

// profileRun runs the built-in features at paths against the reference
// started with p's limits (the lanes pass them as TOOLCERT_* variables).
func profileRun(t *testing.T, p targets.Profile, paths ...string) *reports.Result {
	t.Helper()
	res, err := runner.Run(context.Background(), runner.Config{Target: reference.InProcess(), Profile: p, FeaturePaths: paths})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return res
}

// TestReferencePassesUnderOtherProfiles: the whole suite builds its edges
// from the profile, so the reference started with the same limits passes
// under each of these, with no false failure; a scenario that cannot be
// built under a profile is not applicable, with its reason, never passed.
func TestReferencePassesUnderOtherProfiles(t *testing.T) {
	retries := map[string]bool{
		"a failure then an invalid answer: the retry's data is validated too":                                 true,
		"failures on every attempt but the last, then a valid answer: fresh validated data after the retries": true,
		"after the retries, the agent's text names the reviewer":                                              true,
	}
	for name, change := range map[string]func(*targets.Profile){
		"one attempt":  func(p *targets.Profile) { p.MaxAttempts = 1 },
		"two attempts": func(p *targets.Profile) { p.MaxAttempts = 2 },
		"tight": func(p *targets.Profile) {
			p.MaxBytes, p.MaxDepth = 8192, 12
			p.Deadline, p.ReadTimeout = targets.Duration(time.Second), targets.Duration(200*time.Millisecond)
			p.Freshness, p.FutureSkew = targets.Duration(3*time.Minute), targets.Duration(5*time.Second)
		},
		"loose": func(p *targets.Profile) {
			p.MaxBytes, p.MaxDepth, p.MaxAttempts = 1<<20, 64, 5
			p.Deadline, p.ReadTimeout = targets.Duration(3*time.Second), targets.Duration(time.Second)
			p.Freshness, p.FutureSkew = targets.Duration(time.Hour), targets.Duration(2*time.Minute)
		},
	} {
		t.Run(name, func(t *testing.T) {
			p := targets.DefaultProfile()
			change(&p)
			res := profileRun(t, p, "features")
			for _, sc := range res.Scenarios {
				wantNA := p.MaxAttempts == 1 && retries[sc.Name]
				switch {
				case sc.Feature == mcpOnlyFeature && sc.Status == reports.NotApplicable:
				case wantNA && sc.Status != reports.NotApplicable:
					t.Errorf("%s: %q is %s, want not applicable", sc.Feature, sc.Name, sc.Status)
				case !wantNA && sc.Status != reports.Passed:
					t.Errorf("%s: %q %s:\n%s", sc.Feature, sc.Name, sc.Status, sc.Error)
				}
			}
			if res.Summary.CasesFailed != 0 || res.Summary.Leaks != 0 {
				t.Errorf("summary %+v: want no failed case and no leak", res.Summary)
			}
		})
	}
}

// TestUnsupportedVersionScenarioFollowsTheProfile: the scenario about a
// version the adapter does not support does not apply to an adapter whose
// profile declares it.
func TestUnsupportedVersionScenarioFollowsTheProfile(t *testing.T) {
	p := targets.DefaultProfile()
	p.UpstreamVersions["run_status"] = []string{"v1", "v2"}
	res := profileRun(t, p, "features/upstream_versions.feature")
	for _, sc := range res.Scenarios {
		supportedOnlyInV1 := strings.Contains(sc.Name, "supports only in v1")
		if supportedOnlyInV1 != (sc.Status == reports.NotApplicable) {
			t.Errorf("%q is %s (%s)", sc.Name, sc.Status, sc.Error)
		}
	}
}

// TestOtherAllowedVerdictsPass: an adapter that records, wherever the
// decision table allows another verdict, that other one passes every
// scenario and case; its audit logs show that it did take the other way.
func TestOtherAllowedVerdictsPass(t *testing.T) {
	dir := t.TempDir()
	res, err := runner.Run(context.Background(), runner.Config{Target: mutant.OtherWay(), WorkDir: dir})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	for _, sc := range res.Scenarios {
		if sc.Status != reports.Passed && !(sc.Status == reports.NotApplicable && sc.Feature == mcpOnlyFeature) {
			t.Errorf("%s: %q %s:\n%s", sc.Feature, sc.Name, sc.Status, sc.Error)
		}
	}
	var logs strings.Builder
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(path)
			logs.Write(b)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range [][]string{
		{`"tool":"host_uptime"`, `"reason":"bom"`},
		{`"tool":"host_uptime"`, `"reason":"invalid_utf8"`},
		{`"tool":"host_uptime"`, `"gate":"schema","reason":"schema_violation"`},
		{`"tool":"run_status"`, `"reason":"bad_timestamp"`},
	} {
		if !slices.ContainsFunc(strings.Split(logs.String(), "\n"), func(line string) bool {
			return strings.Contains(line, want[0]) && strings.Contains(line, want[1])
		}) {
			t.Errorf("no audit event of %s holds %s: the adapter did not take the other way", want[0], want[1])
		}
	}
}
