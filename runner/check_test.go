package runner

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

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
