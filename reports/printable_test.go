package reports

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPrintable(t *testing.T) {
	tests := []struct {
		name, in, want, why string
	}{
		{"plain", "adapter: ready on :8080 – ok…", "adapter: ready on :8080 – ok…", "printable text, UTF-8 included, is kept"},
		{"lines and tabs", "a\n\tb\n", "a\n\tb\n", "newlines stay lines and tabs stay: a quoted tail keeps its shape"},
		{"backslash", `C:\x1b`, `C:\x1b`, "a backslash is the adapter's own text, kept as is"},
		{"CSI clear screen", "\x1b[2J\x1b[Hhi", `\x1b[2J\x1b[Hhi`, "ESC shows as \\x1b, so the sequence is text"},
		{"OSC title and clipboard", "\x1b]0;pwned\x07\x1b]52;c;Y3Vy\x1b\\", `\x1b]0;pwned\x07\x1b]52;c;Y3Vy\x1b\`, "BEL and ESC of OSC 0 and OSC 52 show"},
		{"C0, CR and DEL", "a\x00b\rc\x7f", `a\x00b\x0dc\x7f`, "a carriage return would overwrite the line"},
		{"C1 as UTF-8", "\u009b31m\u0085", `\u009b31m\u0085`, "a C1 CSI is a CSI to some terminals"},
		{"invalid UTF-8", "\x9b31m\xff", `\x9b31m\xff`, "a stray byte shows as the byte it is"},
		{"bidi controls", "\u202eexe.txt\u202c \u2066x\u2069 \u200f\u061c", `\u202eexe.txt\u202c \u2066x\u2069 \u200f\u061c`, "overrides, isolates and marks reorder what is read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Printable(tt.in); got != tt.want {
				t.Errorf("Printable(%q) = %q, want %q: %s", tt.in, got, tt.want, tt.why)
			}
		})
	}
}

// terminalHostile is adapter text that acts on a terminal: a clear screen,
// a window title, a clipboard write, a carriage return that rewrites the
// line, a bidi override, C1 CSIs raw and as UTF-8, and a fake verdict.
const terminalHostile = "\x1b[2J\x1b]0;pwned\x07\x1b]52;c;Y3Vy\x07\rall scenarios passed \u202eevil \x9b31m \u009b32m\nall scenarios passed"

// checkTerminalInert fails when text holds a byte a terminal acts on.
func checkTerminalInert(t *testing.T, what, text string) {
	t.Helper()
	for _, raw := range []string{"\x1b", "\x07", "\r", "\u202e", "\x9b", "\u009b"} {
		if strings.Contains(text, raw) {
			t.Errorf("%s holds the raw %q:\n%s", what, raw, text)
		}
	}
	if !strings.Contains(text, `\x1b[2J\x1b]0;pwned\x07`) {
		t.Errorf("%s does not show the escapes:\n%s", what, text)
	}
}

// TestTerminalRenderersAreInert: the progress line, the text summary and
// a scenario's Problem, the console's renderers, show adapter text in
// their error and evidence as visible escapes.
func TestTerminalRenderersAreInert(t *testing.T) {
	sc := Scenario{ID: "f: s", Feature: "f", Name: "s", Status: Failed, Error: terminalHostile,
		Evidence: []Evidence{{Kind: EvidenceTarget, Message: terminalHostile}}}
	var progress bytes.Buffer
	Progress(&progress, sc)
	checkTerminalInert(t, "Progress", progress.String())

	r := &Result{Version: "v", Target: "process ./a", Scenarios: []Scenario{sc}}
	r.Tally()
	var text bytes.Buffer
	if err := Text(&text, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	checkTerminalInert(t, "Text", text.String())
	checkTerminalInert(t, "Problem", sc.Problem())

	lines := strings.Split(sc.Problem(), "\n")
	want := []string{
		`\x1b[2J\x1b]0;pwned\x07\x1b]52;c;Y3Vy\x07\x0dall scenarios passed \u202eevil \x9b31m \u009b32m`,
		"all scenarios passed",
		`evidence [target] \x1b[2J\x1b]0;pwned\x07\x1b]52;c;Y3Vy\x07\x0dall scenarios passed \u202eevil \x9b31m \u009b32m`,
		"all scenarios passed",
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("Problem's lines (-want +got):\n%s", diff)
	}
}
