package attest

import (
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
)

// resultOfScenarios returns a finished result of scenarios, tallied, with
// baseline b applied when it is not nil.
func resultOfScenarios(b *reports.Baseline, scenarios ...reports.Scenario) *reports.Result {
	r := &reports.Result{Tool: "toolcert", Seed: 7, Target: "process ./my-adapter", Scenarios: scenarios,
		StartedAt: time.Date(2025, 3, 4, 5, 0, 0, 0, time.UTC)}
	r.Tally()
	if b != nil {
		b.Apply(r)
	}
	return r
}

func TestPredicateResult(t *testing.T) {
	pass := reports.Scenario{ID: "a.feature: passes", Status: reports.Passed}
	fail := reports.Scenario{ID: "a.feature: fails", Status: reports.Failed}
	skip := reports.Scenario{ID: "a.feature: skips", Status: reports.Skipped}
	na := reports.Scenario{ID: "a.feature: does not apply", Status: reports.NotApplicable}
	expectFail := &reports.Baseline{Scenarios: []reports.Expected{{ID: fail.ID}}}
	tests := []struct {
		name                   string
		res                    *reports.Result
		runErr                 error
		want                   Result
		passed, warned, failed int
		reason                 string
	}{
		{"every scenario passed", resultOfScenarios(nil, pass, na), nil, Passed, 1, 0, 0, "every scenario that applies"},
		{"a failure", resultOfScenarios(nil, pass, fail), nil, Failed, 1, 0, 1, "failed scenarios no baseline explains: 1"},
		{"a failure the baseline expects", resultOfScenarios(expectFail, pass, fail), nil, Warned, 1, 1, 0, "every failure is one the baseline expects"},
		{"a baseline none of whose failures happened", resultOfScenarios(&reports.Baseline{Scenarios: []reports.Expected{{ID: "gone"}}}, pass), nil, Passed, 1, 0, 0, "every scenario passed"},
		{"an unexpected pass", resultOfScenarios(&reports.Baseline{Scenarios: []reports.Expected{{ID: pass.ID}}}, pass), nil, Failed, 1, 0, 0, "unexpected passes"},
		{"a skip", resultOfScenarios(nil, pass, skip), nil, Failed, 1, 0, 0, "skipped scenarios"},
		{"the target did not start", resultOfScenarios(nil, reports.Scenario{ID: "the target starts", Status: reports.Failed}),
			fmt.Errorf("%w: exit status 3 \x1b[2J", runner.ErrTargetStart), Failed, 0, 0, 1, runner.ErrTargetStart.Error()},
		{"interrupted", resultOfScenarios(nil, pass, skip), fmt.Errorf("%w: signal", runner.ErrInterrupted), Failed, 1, 0, 0, runner.ErrInterrupted.Error()},
		{"a pass with another error", resultOfScenarios(nil, pass), errors.New("odd"), Failed, 1, 0, 0, "the run did not finish"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Predicate(tt.res, tt.runErr, Config{Executable: os.Args[0], Version: "test"}, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if p.Result != tt.want {
				t.Errorf("result %s, want %s (reasons %q)", p.Result, tt.want, p.Toolcert.Reasons)
			}
			if len(p.PassedTests) != tt.passed || len(p.WarnedTests) != tt.warned || len(p.FailedTests) != tt.failed {
				t.Errorf("tests passed %q, warned %q, failed %q; want %d, %d, %d", p.PassedTests, p.WarnedTests, p.FailedTests, tt.passed, tt.warned, tt.failed)
			}
			if len(p.Toolcert.Reasons) == 0 || !containsPrefix(p.Toolcert.Reasons, tt.reason) {
				t.Errorf("reasons %q, want one starting with %q", p.Toolcert.Reasons, tt.reason)
			}
			for _, r := range p.Toolcert.Reasons {
				if r != reports.Printable(r) || containsByte(r, 0x1b) {
					t.Errorf("reason %q quotes the adapter", r)
				}
			}
		})
	}
}

func containsPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
			return true
		}
	}
	return false
}

func containsByte(s string, b byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return true
		}
	}
	return false
}

func TestPredicateConfiguration(t *testing.T) {
	res := resultOfScenarios(nil, reports.Scenario{ID: "a", Status: reports.Passed})
	baseline := writeTemp(t, "baseline.json", []byte(`{"scenarios": []}`))
	cfg := Config{Executable: os.Args[0], Version: "1.2.3", UpstreamVersion: "v2"}
	p, err := Predicate(res, nil, cfg, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	names := func(p TestResult) []string {
		var out []string
		for _, d := range p.Configuration {
			out = append(out, d.Name)
		}
		return out
	}
	if diff := cmp.Diff([]string{ConfigFeatures, ConfigFixtures, ConfigProfile, ConfigSeed, ConfigToolcert}, names(p)); diff != "" {
		t.Errorf("configuration without a baseline (-want +got):\n%s", diff)
	}
	st := &Statement{Predicate: p}
	if d, _ := st.Configuration(ConfigSeed); d.Annotations["value"] != "7" || d.SHA256() != StringDigest("7") {
		t.Errorf("seed descriptor %+v, want value 7 and the digest of \"7\"", d)
	}
	self, _ := FileDigest(os.Args[0])
	if d, _ := st.Configuration(ConfigToolcert); d.Annotations["version"] != "1.2.3" || d.SHA256() != self {
		t.Errorf("toolcert descriptor %+v, want version 1.2.3 and the binary's digest %s", d, self)
	}
	if diff := cmp.Diff([]string{"v2"}, p.Toolcert.UpstreamVersions); diff != "" {
		t.Errorf("upstream versions (-want +got):\n%s", diff)
	}

	cfg.BaselinePath, cfg.UpstreamVersion = baseline, ""
	p, err = Predicate(res, nil, cfg, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	st = &Statement{Predicate: p}
	want, _ := FileDigest(baseline)
	if d, ok := st.Configuration(ConfigBaseline); !ok || d.SHA256() != want {
		t.Errorf("baseline descriptor %+v, %v; want the file's digest %s", d, ok, want)
	}
	if diff := cmp.Diff([]string{"v1", "v2"}, p.Toolcert.UpstreamVersions); diff != "" {
		t.Errorf("upstream versions of a run of every version (-want +got):\n%s", diff)
	}
}

// TestPredicateLevels: the predicate names the level the run certifies;
// its result, tests and counts are that level's, and its levels give the
// result and counts at each level, the certified one's the predicate's
// own (WARNED too), the other's from that level's verdict, with no
// baseline.
func TestPredicateLevels(t *testing.T) {
	at := func(id string, safe, strict reports.Status) reports.Scenario {
		return reports.Scenario{ID: id, Status: safe, Levels: map[reports.Level]reports.Status{reports.LevelSafe: safe, reports.LevelStrict: strict}}
	}
	safeRun := func(b *reports.Baseline, scs ...reports.Scenario) *reports.Result {
		r := resultOfScenarios(nil, scs...)
		r.Level = reports.LevelSafe
		r.Tally()
		if b != nil {
			b.Apply(r)
		}
		return r
	}
	strictFailure := at("a.feature: closed", reports.Passed, reports.Failed)
	strictOnly := at("a.feature: @strict", reports.StrictOnly, reports.Passed)
	safeFailure := at("a.feature: leaks", reports.Failed, reports.Failed)
	tests := []struct {
		name   string
		res    *reports.Result
		runErr error
		want   string // result, level; then each level's result and counts
	}{
		{"safe passes, strict fails", safeRun(nil, strictFailure, strictOnly), nil,
			"PASSED safe; safe PASSED 2 scenarios 1 passed 0 failed 1 strict only; strict FAILED 2 scenarios 1 passed 1 failed 0 strict only"},
		{"a baseline of the certified level", safeRun(&reports.Baseline{Level: reports.LevelSafe, Scenarios: []reports.Expected{{ID: safeFailure.ID}}}, safeFailure, strictOnly), nil,
			"WARNED safe; safe WARNED 2 scenarios 0 passed 1 failed 1 strict only; strict FAILED 2 scenarios 1 passed 1 failed 0 strict only"},
		{"interrupted", safeRun(nil, strictOnly, at("b", reports.Passed, reports.Passed)), fmt.Errorf("%w: signal", runner.ErrInterrupted),
			"FAILED safe; safe FAILED 2 scenarios 1 passed 0 failed 1 strict only; strict FAILED 2 scenarios 2 passed 0 failed 0 strict only"},
		{"a target that did not start", resultOfScenarios(nil, reports.Scenario{ID: "the target starts", Status: reports.Failed}),
			fmt.Errorf("%w: exit status 3", runner.ErrTargetStart),
			"FAILED strict; strict FAILED 1 scenarios 0 passed 1 failed 0 strict only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Predicate(tt.res, tt.runErr, Config{Executable: os.Args[0], Version: "test"}, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprintf("%s %s", p.Result, p.Toolcert.Level)
			for _, lr := range p.Toolcert.Levels {
				c := lr.Counts
				got += fmt.Sprintf("; %s %s %d scenarios %d passed %d failed %d strict only", lr.Level, lr.Result, c.Scenarios, c.Passed, c.Failed, c.StrictOnly)
			}
			if got != tt.want {
				t.Errorf("predicate\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestResultAt: the result at a level is the predicate's levels' entry;
// an attestation written before levels certified strict, which covers
// safe.
func TestResultAt(t *testing.T) {
	withLevels := testStatement(Failed, StringDigest("a"), "")
	withLevels.Predicate.Toolcert.Level = reports.LevelStrict
	withLevels.Predicate.Toolcert.Levels = []LevelResult{{Level: reports.LevelSafe, Result: Passed}, {Level: reports.LevelStrict, Result: Failed}}
	old := testStatement(Passed, StringDigest("a"), "")
	oldSafe := testStatement(Passed, StringDigest("a"), "")
	oldSafe.Predicate.Toolcert.Level = reports.LevelSafe
	var got []string
	for _, st := range []*Statement{withLevels, old, oldSafe} {
		for _, l := range reports.Levels() {
			r, ok := st.Predicate.ResultAt(l)
			got = append(got, fmt.Sprintf("%s %s %t", l, r, ok))
		}
	}
	want := []string{"safe PASSED true", "strict FAILED true", "safe PASSED true", "strict PASSED true", "safe PASSED true", "strict  false"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ResultAt (-want +got):\n%s", diff)
	}
}
