package actiontest

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestActionFile checks action.yml as GitHub reads it: a composite action
// whose scripts take every input from the environment, never as text.
func TestActionFile(t *testing.T) {
	a := loadAction(t)
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using = %q, want composite", a.Runs.Using)
	}
	used := map[string]bool{}
	ids := map[string]bool{}
	for _, s := range a.Runs.Steps {
		checkStep(t, s, a, ids, used)
		if s.ID != "" {
			ids[s.ID] = true
		}
	}
	for name := range a.Inputs {
		if !used[name] {
			t.Errorf("input %s is declared but no step reads it", name)
		}
	}
	for name, o := range a.Outputs {
		if want := "${{ steps.run.outputs." + name + " }}"; o.Value != want {
			t.Errorf("output %s = %q, want %q", name, o.Value, want)
		}
	}
}

// checkStep checks one step of the action: its expressions read only
// declared inputs and earlier steps, and a run step is bash with no
// expression in its text.
func checkStep(t *testing.T, s step, a actionFile, ids, used map[string]bool) {
	t.Helper()
	refs := regexp.MustCompile(`\b(inputs|steps)\.([A-Za-z0-9_-]+)`)
	check := func(where, text string) {
		for _, m := range refs.FindAllStringSubmatch(text, -1) {
			_, declared := a.Inputs[m[2]]
			switch {
			case m[1] == "inputs" && !declared:
				t.Errorf("step %q: %s reads undeclared input %s", s.Name, where, m[2])
			case m[1] == "steps" && !ids[m[2]]:
				t.Errorf("step %q: %s reads step %s, which does not come before it", s.Name, where, m[2])
			case m[1] == "inputs":
				used[m[2]] = true
			}
		}
	}
	check("if", s.If)
	for k, v := range s.With {
		check("with."+k, v)
	}
	for k, v := range s.Env {
		if strings.Contains(v, "${{") && !wholeExpr.MatchString(v) {
			t.Errorf("step %q: env %s = %q: an expression must be the whole value", s.Name, k, v)
		}
		check("env."+k, v)
	}
	if s.Uses != "" {
		return
	}
	if s.Shell != "bash" {
		t.Errorf("step %q: shell %q, want bash", s.Name, s.Shell)
	}
	if strings.Contains(s.Run, "${{") {
		t.Errorf("step %q: its script holds an expression: GitHub would paste the value into the script (pass it through env)", s.Name)
	}
	if _, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s.Run), s.Name); err != nil {
		t.Errorf("step %q: not bash: %v", s.Name, err)
	}
}

// TestActionUses pins the actions the composite action runs, and checks
// that the reports are uploaded whatever happened before.
func TestActionUses(t *testing.T) {
	a := loadAction(t)
	var uses []string
	for _, s := range a.Runs.Steps {
		if s.Uses != "" {
			uses = append(uses, s.Uses)
		}
	}
	want := []string{"actions/setup-go@v5", "actions/upload-artifact@v4"}
	if !slices.Equal(uses, want) {
		t.Errorf("uses = %q, want %q", uses, want)
	}
	if got := a.Runs.Steps[0].With["go-version-file"]; got != "${{ github.action_path }}/go.mod" {
		t.Errorf("setup-go go-version-file = %q, want the action's own go.mod", got)
	}
	for _, s := range a.Runs.Steps {
		if s.Uses == "actions/upload-artifact@v4" && !strings.HasPrefix(s.If, "always()") {
			t.Errorf("upload step if = %q: want always(), so a failed run's reports are uploaded", s.If)
		}
	}
}
