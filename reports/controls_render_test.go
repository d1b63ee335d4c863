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
		"json": JSON, "junit": JUnit, "cucumber": nil, "cucumber-jvm": nil, "ctrf": CTRF, "sarif": SARIF, "markdown": Markdown, "html": HTML,
		"text": func(w io.Writer, r *Result) error { return Text(w, r, TextOptions{}) },
	}
	for name, render := range formats {
		if render == nil {
			continue // cucumber JSON has no place for the run as a whole: docs/reports.md
		}
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
				if !strings.Contains(out, cr.ID) {
					t.Errorf("%s does not name control %s (%s)", name, cr.ID, cr.Status)
				}
			}
			for _, state := range []string{ControlViolated, ControlNotExercised} {
				if !strings.Contains(out, state) && !strings.Contains(out, strings.ReplaceAll(state, "_", " ")) {
					t.Errorf("%s does not say %q", name, state)
				}
			}
		})
	}
}
