package selftest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/targets"
)

// scaleOriginals are the built-in read tools a scale corpus clones, in
// turn.
var scaleOriginals = []string{"review_status", "run_status", "deploy_status", "host_uptime"}

// scaleCorpus is a generated corpus of many tools and the feature that
// runs every generated variant of each.
type scaleCorpus struct {
	// Fixtures is the corpus: one folder per clone, and policy.json.
	Fixtures fs.FS
	// Features holds scale.feature, one scenario per clone.
	Features fs.FS
	// Clones maps each tool of the corpus onto the built-in tool it copies,
	// as reference.InProcessClones takes it.
	Clones map[string]string
	// Profile is the reference's profile with each clone declaring the
	// upstream versions of its original.
	Profile targets.Profile
}

// writeScaleCorpus writes a corpus of n tools under a temporary folder of
// tb: tool i is a copy of scaleOriginals[i%4] named "<original>_<i>"
// (review_status_00, run_status_01, ...), its name replaced in tool.json,
// contract.json and cases.json and its bodies copied byte for byte; the
// built-in policy with every clone allowlisted and granted as its original;
// a feature running every generated variant of each clone; and the
// default profile with each clone supporting its original's versions.
func writeScaleCorpus(tb testing.TB, n int) scaleCorpus {
	tb.Helper()
	dir := tb.TempDir()
	fixtures, features := filepath.Join(dir, "fixtures"), filepath.Join(dir, "features")
	clones := make(map[string]string, n)
	profile := targets.DefaultProfile()
	var feature strings.Builder
	fmt.Fprintf(&feature, "Feature: Generated variants of a corpus of %d cloned tools\n", n)
	for i := range n {
		original := scaleOriginals[i%len(scaleOriginals)]
		name := fmt.Sprintf("%s_%02d", original, i)
		clones[name] = original
		profile.UpstreamVersions[name] = profile.UpstreamVersions[original]
		copyTool(tb, fixtures, original, name)
		fmt.Fprintf(&feature, "\n  Scenario: every variant of %s\n    Then every generated variant of %q is handled as expected without leaking\n", name, name)
	}
	writeFile(tb, filepath.Join(fixtures, "policy.json"), clonePolicy(tb, clones))
	writeFile(tb, filepath.Join(features, "scale.feature"), []byte(feature.String()))
	return scaleCorpus{Fixtures: os.DirFS(fixtures), Features: os.DirFS(features), Clones: clones, Profile: profile}
}

// renamed are the files of a tool folder that name the tool: in them the
// JSON string of the original's name becomes the clone's.
var renamed = map[string]bool{"tool.json": true, "contract.json": true, "cases.json": true}

// copyTool copies the built-in tool folder original to root/name.
func copyTool(tb testing.TB, root, original, name string) {
	tb.Helper()
	from, _ := json.Marshal(original)
	to, _ := json.Marshal(name)
	err := fs.WalkDir(toolcert.Fixtures(), original, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(toolcert.Fixtures(), p)
		if err != nil {
			return err
		}
		if renamed[path.Base(p)] && path.Dir(p) == original {
			b = bytes.ReplaceAll(b, from, to)
		}
		writeFile(tb, filepath.Join(root, name, filepath.FromSlash(strings.TrimPrefix(p, original+"/"))), b)
		return nil
	})
	if err != nil {
		tb.Fatalf("copy %s as %s: %v", original, name, err)
	}
}

// clonePolicy returns the built-in policy.json with each clone on the
// allowlist and granted as its original.
func clonePolicy(tb testing.TB, clones map[string]string) []byte {
	tb.Helper()
	b, err := fs.ReadFile(toolcert.Fixtures(), "policy.json")
	if err != nil {
		tb.Fatal(err)
	}
	var policy map[string]any
	if err := json.Unmarshal(b, &policy); err != nil {
		tb.Fatalf("built-in policy.json: %v", err)
	}
	allow, _ := policy["allowlist"].([]any)
	grants, _ := policy["grants"].(map[string]any)
	for name, original := range clones {
		allow = append(allow, name)
		grants[name] = grants[original]
	}
	policy["allowlist"] = allow
	out, err := json.MarshalIndent(policy, "", "  ")
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// writeFile writes b to file, creating its folder.
func writeFile(tb testing.TB, file string, b []byte) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		tb.Fatal(err)
	}
}

func TestScaleCorpusLintsClean(t *testing.T) {
	sc := writeScaleCorpus(t, 6)
	if problems := runner.LintCorpus(sc.Fixtures, sc.Profile, time.Now()); len(problems) != 0 {
		t.Errorf("LintCorpus(a corpus of 6 clones) = %d problems, want none: %v", len(problems), problems)
	}
	entries, err := fs.ReadDir(sc.Fixtures, ".")
	if err != nil {
		t.Fatal(err)
	}
	var tools []string
	for _, e := range entries {
		if e.IsDir() {
			tools = append(tools, e.Name())
		}
	}
	want := []string{"deploy_status_02", "host_uptime_03", "review_status_00", "review_status_04", "run_status_01", "run_status_05"}
	if strings.Join(tools, " ") != strings.Join(want, " ") {
		t.Errorf("tool folders = %v, want %v", tools, want)
	}
}

// TestScaleCorpusPasses runs the smallest scale corpus, one clone of
// review_status, against the reference serving it: every generated case
// passes under the clone's own name.
func TestScaleCorpusPasses(t *testing.T) {
	sc := writeScaleCorpus(t, 1)
	res, err := runner.Run(context.Background(), runner.Config{
		Features: sc.Features, Fixtures: sc.Fixtures, Profile: sc.Profile, Target: reference.InProcessClones(sc.Clones),
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.Scenarios != 1 || res.Summary.Failed != 0 || res.Summary.CasesFailed != 0 || res.Summary.Cases < 100 {
		t.Fatalf("summary %+v; want 1 passing scenario of at least 100 passing cases", res.Summary)
	}
	for _, c := range res.Scenarios[0].Cases {
		if c.Tool != "review_status_00" || !strings.HasPrefix(c.ID, "review_status_00/") {
			t.Fatalf("case %q of tool %q; want the clone review_status_00's", c.ID, c.Tool)
		}
	}
}
