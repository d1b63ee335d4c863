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

// TestEveryFormatSaysWhichLevelEvidencesAControl renders a run that
// certifies level safe in every format that shows the controls' states,
// and finds in each that LLM06, which only a @strict scenario gives
// evidence for, is evidenced at level strict: how each format says it.
func TestEveryFormatSaysWhichLevelEvidencesAControl(t *testing.T) {
	r := levelledControlSample()
	tests := []struct {
		name   string
		render func(io.Writer, *Result) error
		want   string
	}{
		{"junit", JUnit, `value="not_exercised: 0 passed, 0 failed (level safe: not exercised; level strict: evidenced); Excessive Agency"`},
		{"ctrf", CTRF, `"level": "strict",` + "\n" + `              "status": "evidenced",`},
		{"sarif", SARIF, "In this run: not exercised, 0 passed, 0 failed. By level: level safe: not exercised; level strict: evidenced."},
		{"markdown", Markdown, "| `LLM06:2025` Excessive Agency | not_exercised | 0 | 0 | safe not exercised, strict evidenced |"},
		{"html", HTML, `<span class="badge none">not exercised</span> <span class="meta">level safe: not exercised; level strict: evidenced</span>`},
		{"text", func(w io.Writer, r *Result) error { return Text(w, r, TextOptions{}) }, "  at level strict: evidenced  LLM06:2025: 1 passed, 0 failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tt.render(&b, r); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tt.want) {
				t.Errorf("%s lacks %q:\n%s", tt.name, tt.want, b.String())
			}
		})
	}
	t.Run("json", func(t *testing.T) {
		var b bytes.Buffer
		if err := JSON(&b, r); err != nil {
			t.Fatal(err)
		}
		back, err := ReadResult(&b)
		if err != nil {
			t.Fatal(err)
		}
		safe, _ := back.Controls[3].At(LevelSafe)
		strict, _ := back.Controls[3].At(LevelStrict)
		if back.Controls[3].Status != ControlNotExercised || safe.Status != ControlNotExercised || strict.Status != ControlEvidenced {
			t.Errorf("results.json's LLM06: %+v, want not exercised, evidenced at level strict only", back.Controls[3])
		}
	})
}
