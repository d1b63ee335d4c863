package actiontest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"go.yaml.in/yaml/v3"
)

// actionFile is action.yml: the keys GitHub reads from a composite action,
// and no other (it is decoded with known fields only).
type actionFile struct {
	Name        string            `yaml:"name"`
	Description string            `yaml:"description"`
	Author      string            `yaml:"author"`
	Branding    map[string]string `yaml:"branding"`
	Inputs      map[string]input  `yaml:"inputs"`
	Outputs     map[string]output `yaml:"outputs"`
	Runs        struct {
		Using string `yaml:"using"`
		Steps []step `yaml:"steps"`
	} `yaml:"runs"`
}

// input is one of the action's inputs.
type input struct {
	Description string `yaml:"description"`
	Required    bool   `yaml:"required"`
	Default     string `yaml:"default"`
}

// output is one of the action's outputs.
type output struct {
	Description string `yaml:"description"`
	Value       string `yaml:"value"`
}

// step is a step of a composite action or of a workflow's job.
type step struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	With  map[string]string `yaml:"with"`
	Shell string            `yaml:"shell"`
	Env   map[string]string `yaml:"env"`
	Run   string            `yaml:"run"`
}

// workflowFile is a workflow with the keys the example uses.
type workflowFile struct {
	Name        string               `yaml:"name"`
	On          map[string]yaml.Node `yaml:"on"`
	Permissions map[string]string    `yaml:"permissions"`
	Env         map[string]string    `yaml:"env"`
	Jobs        map[string]struct {
		RunsOn string `yaml:"runs-on"`
		Steps  []step `yaml:"steps"`
	} `yaml:"jobs"`
}

// repoRoot returns the module's root, two folders above this package.
func repoRoot(tb testing.TB) string {
	tb.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		tb.Fatalf("repository root: %v", err)
	}
	return root
}

// decodeStrict decodes the YAML file at path into v, refusing unknown keys.
func decodeStrict(tb testing.TB, path string, v any) {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("read %s: %v", path, err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		tb.Fatalf("decode %s: %v", path, err)
	}
}

// loadAction reads action.yml at the module's root.
func loadAction(tb testing.TB) actionFile {
	tb.Helper()
	var a actionFile
	decodeStrict(tb, filepath.Join(repoRoot(tb), "action.yml"), &a)
	return a
}

// loadWorkflow reads the example workflow.
func loadWorkflow(tb testing.TB) workflowFile {
	tb.Helper()
	var w workflowFile
	decodeStrict(tb, filepath.Join(repoRoot(tb), ".github", "workflows", "toolcert-example.yml"), &w)
	return w
}

// stepByID returns the action's step with the given id.
func (a actionFile) stepByID(tb testing.TB, id string) step {
	tb.Helper()
	for _, s := range a.Runs.Steps {
		if s.ID == id {
			return s
		}
	}
	tb.Fatalf("action.yml has no step with id %q", id)
	return step{}
}
