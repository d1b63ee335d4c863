package runner

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/targets"
)

// TestRunRefusesCorpusTheProfileRejects: under a one-minute freshness
// window the built-in corpus's example observed two minutes ago cannot be
// accepted, so the run refuses to start and names the example.
func TestRunRefusesCorpusTheProfileRejects(t *testing.T) {
	p := targets.DefaultProfile()
	p.Freshness = targets.Duration(time.Minute)
	_, err := Run(context.Background(), Config{Target: fakeTarget(fixed(nil)), Profile: p})
	if !errors.Is(err, ErrConfig) {
		t.Fatalf("err = %v, want ErrConfig", err)
	}
	for _, want := range []string{"run_status/cases.json: /accepted/", "stale", "freshness window of 1m0s", "1 problem;"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %q:\n%v", want, err)
		}
	}
}

// TestLintCorpusUsesTheProfile: the default profile's limits keep the
// built-in corpus clean, and a byte limit below an accepted example's size
// does not.
func TestLintCorpusUsesTheProfile(t *testing.T) {
	cfg := Config{}
	cfg.withDefaults()
	if got := LintCorpus(cfg.Fixtures, cfg.Profile, time.Now()); len(got) != 0 {
		t.Fatalf("default profile: %d problems, the first: %v", len(got), got[0])
	}
	p := targets.DefaultProfile()
	p.MaxBytes = 64
	if got := LintCorpus(cfg.Fixtures, p, time.Now()); len(got) == 0 {
		t.Fatal("a 64-byte limit: no problem, want the accepted examples above it")
	}
}

// TestRunRefusesOpenDecisions: a corpus whose tool lists a decision left
// to its owner is refused, naming it, unless AllowOpenDecisions.
func TestRunRefusesOpenDecisions(t *testing.T) {
	fixtures := fstest.MapFS{}
	if err := fs.WalkDir(toolcert.Fixtures(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(toolcert.Fixtures(), name)
		fixtures[name] = &fstest.MapFile{Data: b}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	tool := fixtures["run_status/tool.json"]
	tool.Data = bytes.Replace(tool.Data, []byte(`"versions": {`),
		[]byte(`"decide": [{"file": "tool.json", "pointer": "/versions/v1/fresh", "decide": "which timestamp is the observation time"}], "versions": {`), 1)
	_, err := Run(context.Background(), Config{Target: fakeTarget(fixed(nil)), Fixtures: fixtures, FeaturePaths: []string{"features/transport.feature"}})
	if !errors.Is(err, ErrConfig) {
		t.Fatalf("err = %v, want ErrConfig", err)
	}
	for _, want := range []string{"1 decision left to its owner", "run_status/tool.json: /versions/v1/fresh: which timestamp", "--allow-open-decisions"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %q:\n%v", want, err)
		}
	}
	cfg := Config{Fixtures: fixtures, AllowOpenDecisions: true}
	cfg.withDefaults()
	if err := cfg.checkCorpus(); err != nil {
		t.Errorf("with AllowOpenDecisions: %v", err)
	}
}
