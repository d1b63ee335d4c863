package actiontest

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestReadme checks README.md's section "GitHub Action" against action.yml:
// its tables name every input and output, and its example gives the action
// only inputs it declares.
func TestReadme(t *testing.T) {
	a := loadAction(t)
	readme := readFile(t, filepath.Join(repoRoot(t), "README.md"))
	_, section, ok := strings.Cut(readme, "\n## GitHub Action\n")
	if !ok {
		t.Fatal(`README.md has no section "GitHub Action"`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	rows := tableRows(section)
	for name := range a.Inputs {
		if !strings.Contains(rows["input"], "`"+name+"`") {
			t.Errorf("the inputs table has no row for %s", name)
		}
	}
	for name := range a.Outputs {
		if !strings.Contains(rows["output"], "`"+name+"`") {
			t.Errorf("the outputs table has no row for %s", name)
		}
	}
	checkReadmeExample(t, a, section)
}

// tableRows returns the first cells of the rows of each Markdown table in
// text, by the first word of its header ("input", "output").
func tableRows(text string) map[string]string {
	rows := map[string]string{}
	table := ""
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "| ") {
			table = ""
			continue
		}
		first, _, _ := strings.Cut(line[2:], " |")
		if table == "" {
			table = first
			continue
		}
		rows[table] += first + "\n"
	}
	return rows
}

// checkReadmeExample decodes the section's YAML example and checks the
// inputs of its step that uses the action.
func checkReadmeExample(t *testing.T, a actionFile, section string) {
	t.Helper()
	m := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindStringSubmatch(section)
	if m == nil {
		t.Fatal("the section has no YAML example")
	}
	var w struct {
		Jobs map[string]struct{ Steps []step } `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(m[1]), &w); err != nil {
		t.Fatalf("the example is not YAML: %v", err)
	}
	found := false
	for _, job := range w.Jobs {
		for _, s := range job.Steps {
			if !strings.HasPrefix(s.Uses, "toolcert/toolcert@") {
				continue
			}
			found = true
			for k := range s.With {
				if _, ok := a.Inputs[k]; !ok {
					t.Errorf("the example gives with.%s, which is not an input of action.yml", k)
				}
			}
		}
	}
	if !found {
		t.Error("the example has no step that uses toolcert/toolcert@REF")
	}
}
