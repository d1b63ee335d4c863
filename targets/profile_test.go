package targets_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/targets"
)

func TestLoadProfile(t *testing.T) {
	def := targets.DefaultProfile()
	tests := []struct {
		name string
		file string
		want func(p *targets.Profile)
	}{
		{"empty keeps every default", `{}`, func(*targets.Profile) {}},
		{"a limit replaces only that limit", `{"max_attempts": 2, "deadline": "1500ms"}`, func(p *targets.Profile) {
			p.MaxAttempts = 2
			p.Deadline = targets.Duration(1500 * time.Millisecond)
		}},
		// The map replaces the default as a whole: deploy_status, not
		// named, supports every version of its corpus, not the default v1.
		{"upstream_versions replaces the default map", `{"upstream_versions": {"review_status": ["v1", "v2"]}}`, func(p *targets.Profile) {
			p.UpstreamVersions = map[string][]string{"review_status": {"v1", "v2"}}
		}},
		{"an empty upstream_versions names no tool", `{"upstream_versions": {}}`, func(p *targets.Profile) {
			p.UpstreamVersions = map[string][]string{}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "profile.json")
			if err := os.WriteFile(path, []byte(tt.file), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := targets.LoadProfile(path)
			if err != nil {
				t.Fatalf("LoadProfile: %v", err)
			}
			want := targets.DefaultProfile()
			want.UpstreamVersions = def.UpstreamVersions
			tt.want(&want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("LoadProfile(%s) mismatch (-want +got):\n%s", tt.file, diff)
			}
		})
	}
}

func TestLoadProfileSupports(t *testing.T) {
	path := filepath.Join(t.TempDir(), "profile.json")
	if err := os.WriteFile(path, []byte(`{"upstream_versions": {"review_status": ["v1"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := targets.LoadProfile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tool, version string
		want          bool
	}{{"review_status", "v1", true}, {"review_status", "v2", false}, {"deploy_status", "v2", true}} {
		if got := p.Supports(c.tool, c.version); got != c.want {
			t.Errorf("Supports(%s, %s) = %v, want %v", c.tool, c.version, got, c.want)
		}
	}
}

func TestLoadProfileRefuses(t *testing.T) {
	for name, file := range map[string]string{
		"an unknown field":        `{"max_atempts": 2}`,
		"a negative limit":        `{"max_bytes": -1}`,
		"not a duration":          `{"deadline": 5}`,
		"a file that is not JSON": `max_attempts: 2`,
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "profile.json")
			if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := targets.LoadProfile(path); err == nil {
				t.Errorf("LoadProfile(%s) = nil error, want one", file)
			}
		})
	}
}
