package reports

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestEveryFormatShowsTheControls renders a run with controls in every
// format and finds each control's ID and its state in each.
func TestEveryFormatShowsTheControls(t *testing.T) {
	r := controlSample()
	r.Controls = controlCatalogue().Evaluate(r)
	if len(r.Controls) == 0 {
		t.Fatal("the sample has no controls")
	}
	formats := map[string]func(io.Writer, *Result) error{
		"json": JSON, "junit": JUnit, "cucumber": CucumberJSON, "cucumber-jvm": CucumberJVM, "ctrf": CTRF, "sarif": SARIF, "markdown": Markdown, "html": HTML,
		"text": func(w io.Writer, r *Result) error { return Text(w, r, TextOptions{}) },
	}
	for name, render := range formats {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := render(&b, r); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, cr := range r.Controls {
				if name == "text" && cr.Status == ControlEvidenced {
					continue // the summary counts evidenced controls, it names the others
				}
				if strings.HasPrefix(name, "cucumber") && cr.Status == ControlNotExercised {
					continue // cucumber tags the scenarios with their controls: one no scenario exercised has none
				}
				if !strings.Contains(out, cr.ID) {
					t.Errorf("%s does not name control %s (%s)", name, cr.ID, cr.Status)
				}
			}
			for _, state := range []string{ControlViolated, ControlNotExercised} {
				if strings.HasPrefix(name, "cucumber") {
					break // a tag names the control; the scenario's status says the rest
				}
				if !strings.Contains(out, state) && !strings.Contains(out, strings.ReplaceAll(state, "_", " ")) {
					t.Errorf("%s does not say %q", name, state)
				}
			}
		})
	}
}
