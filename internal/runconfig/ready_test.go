package runconfig

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolcert/toolcert/targets"
)

// TestProfileReadyTimeout: the profile's ready_timeout bounds how long a
// target may take to be ready, and --ready-timeout replaces it.
func TestProfileReadyTimeout(t *testing.T) {
	dir := t.TempDir()
	profile := filepath.Join(dir, "profile.json")
	if err := os.WriteFile(profile, []byte(`{"ready_timeout": "300ms"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		flags Flags
		set   []string
		want  string
	}{
		{"the profile's", Flags{TargetCmd: "sleep 30", Profile: profile}, []string{"target-cmd", "profile"}, "after 300ms"},
		{"the flag's over it", Flags{TargetCmd: "sleep 30", Profile: profile, ReadyTimeout: 600 * time.Millisecond}, []string{"target-cmd", "profile", "ready-timeout"}, "after 600ms"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			set := map[string]bool{}
			for _, s := range tt.set {
				set[s] = true
			}
			r, err := Merge(nil, tt.flags, set)
			if err != nil {
				t.Fatal(err)
			}
			tgt, _, err := r.Build()
			if err != nil {
				t.Fatal(err)
			}
			inst, err := tgt.Start(context.Background(), targets.Env{UpstreamURL: "http://127.0.0.1:9", Dir: t.TempDir()})
			if err == nil {
				inst.Stop(context.Background())
				t.Fatal("a target that never answers started")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("start error %q does not say %q", err, tt.want)
			}
		})
	}
}
