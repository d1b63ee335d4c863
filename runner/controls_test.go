package runner

import (
	"context"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/adapters/mutant"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
)

func TestVocabulary(t *testing.T) {
	v := vocabulary()
	for _, want := range []string{"duplicate_members.feature", "generated_variants.feature", "mcp_server.feature"} {
		if !slices.Contains(v.Features, want) {
			t.Errorf("features %v lack %s", v.Features, want)
		}
	}
	if want := []string{"@calls", "@generated", "@mcp", "@slow", "@strict", "@transport", "@upstream-v1"}; !slices.Equal(v.Tags, want) {
		t.Errorf("tags = %v, want %v", v.Tags, want)
	}
	if !slices.Contains(v.Operators, "duplicate_member") || len(v.Operators) < 50 {
		t.Errorf("operators = %v, want every generator operator", v.Operators)
	}
}

func TestAppendTags(t *testing.T) {
	feature := "@a @b # @not-a-tag\nFeature: x\n  @c\n  Scenario: y\n    Given an email to @someone\n"
	if got, want := appendTags(nil, []byte(feature)), []string{"@a", "@b", "@c"}; !slices.Equal(got, want) {
		t.Errorf("appendTags = %v, want %v", got, want)
	}
}

// TestLintCorpusChecksControls: the built-in catalogue names only what
// exists; one naming a feature, tag or operator that does not fails the
// corpus's lint, and so the run's corpus check.
func TestLintCorpusChecksControls(t *testing.T) {
	fixtures := copyFS(t, toolcert.Fixtures())
	cat := string(fixtures[corpus.ControlsFile].Data)
	cat = strings.Replace(cat, `"duplicate_members.feature"`, `"duplicate_names.feature"`, 1)
	cat = strings.Replace(cat, `"@calls"`, `"@call"`, 1)
	cat = strings.Replace(cat, `"bom"`, `"byte_order_mark"`, 1)
	fixtures[corpus.ControlsFile] = &fstest.MapFile{Data: []byte(cat)}
	var got []string
	for _, p := range LintCorpus(fixtures, targets.DefaultProfile(), time.Now()) {
		got = append(got, p.String())
	}
	want := []string{
		`controls.json: /features/duplicate_names.feature: no feature file "duplicate_names.feature" exists`,
		`controls.json: /tags/@call: no scenario tag "@call" exists`,
		`controls.json: /operators/byte_order_mark: no generator operator "byte_order_mark" exists`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("LintCorpus = %q, want %q", got, want)
	}
}

// runControls runs the built-in duplicate_members.feature against tgt
// with fixtures, and returns the result.
func runControls(t *testing.T, tgt targets.Target, fixtures fs.FS) *reports.Result {
	t.Helper()
	res, err := Run(context.Background(), Config{
		Features: toolcert.Features(), FeaturePaths: []string{"features/duplicate_members.feature"},
		Fixtures: fixtures, Target: tgt, Concurrency: 1,
	})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return res
}

// controlState returns the state and counts of the control id in res.
func controlState(res *reports.Result, id string) string {
	for _, cr := range res.Controls {
		if cr.ID == id {
			return cr.Status + " " + strings.Repeat("+", cr.Passed) + strings.Repeat("-", cr.Failed)
		}
	}
	return "absent"
}

// TestRunEvaluatesControls: a run's result carries the corpus's controls,
// evaluated over its scenarios: the reference evidences what the duplicate
// members feature maps to, a mutant that lets the last duplicate win
// violates it, and what the feature does not map to is not exercised.
func TestRunEvaluatesControls(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the reference and a mutant")
	}
	res := runControls(t, reference.InProcess(), toolcert.Fixtures())
	for id, want := range map[string]string{
		"RFC8259-4": "evidenced ++++", "CWE-436": "evidenced ++++", "ASVS-v5.0.0-1.5.3": "evidenced ++++", "LLM06:2025": "not_exercised ",
	} {
		if got := controlState(res, id); got != want {
			t.Errorf("reference: %s is %q, want %q", id, got, want)
		}
	}
	m, err := mutant.InProcess("duplicate-last-wins")
	if err != nil {
		t.Fatal(err)
	}
	res = runControls(t, m, toolcert.Fixtures())
	if got := controlState(res, "RFC8259-4"); !strings.HasPrefix(got, "violated") {
		t.Errorf("duplicate-last-wins: RFC8259-4 is %q, want violated", got)
	}
}

// TestRunWithoutCatalogue: a corpus without controls.json has no controls.
func TestRunWithoutCatalogue(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the reference")
	}
	fixtures := without{toolcert.Fixtures(), corpus.ControlsFile}
	if res := runControls(t, reference.InProcess(), fixtures); res.Controls != nil {
		t.Errorf("controls = %v, want none", res.Controls)
	}
}

// copyFS returns the files of fsys in a MapFS the test may edit.
func copyFS(tb testing.TB, fsys fs.FS) fstest.MapFS {
	tb.Helper()
	out := fstest.MapFS{}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, name)
		out[name] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// without is an fs.FS with one file hidden.
type without struct {
	fs.FS
	hidden string
}

func (w without) Open(name string) (fs.File, error) {
	if name == w.hidden {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return w.FS.Open(name)
}
