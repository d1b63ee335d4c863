package actiontest

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestWorkflow checks the example workflow: it runs on push, pull requests
// and by hand, builds the reference adapter as an image FROM scratch from
// a static binary, and certifies it with the action, giving only inputs
// the action declares.
func TestWorkflow(t *testing.T) {
	w := loadWorkflow(t)
	a := loadAction(t)
	for _, on := range []string{"push", "pull_request", "workflow_dispatch"} {
		if _, ok := w.On[on]; !ok {
			t.Errorf("on: no %s trigger", on)
		}
	}
	var scripts strings.Builder
	var image bool
	for name, job := range w.Jobs {
		for _, s := range job.Steps {
			checkWorkflowStep(t, name, s, a)
			scripts.WriteString(s.Run)
			image = image || (s.Uses == "./" && s.With["target-image"] != "")
		}
	}
	if !image {
		t.Error("no step runs the action (uses: ./) with target-image")
	}
	for _, want := range []string{"CGO_ENABLED=0 go build", "FROM scratch", `ENTRYPOINT ["/toolcert", "adapter"]`, "docker build"} {
		if !strings.Contains(scripts.String(), want) {
			t.Errorf("no step script holds %q", want)
		}
	}
}

// checkWorkflowStep checks one step of the example: a script is bash with
// no expression in its text, and the action gets only declared inputs.
func checkWorkflowStep(t *testing.T, job string, s step, a actionFile) {
	t.Helper()
	if s.Run != "" {
		if strings.Contains(s.Run, "${{") {
			t.Errorf("job %s step %q: its script holds an expression (pass it through env)", job, s.Name)
		}
		if _, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s.Run), s.Name); err != nil {
			t.Errorf("job %s step %q: not bash: %v", job, s.Name, err)
		}
	}
	if s.Uses != "./" {
		return
	}
	for k := range s.With {
		if _, ok := a.Inputs[k]; !ok {
			t.Errorf("job %s step %q: with.%s is not an input of action.yml", job, s.Name, k)
		}
	}
}
