package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// invisibles are the characters of the one rule ([isInvisible]): bidi
// embeddings, overrides, isolates and marks, line and paragraph
// separators, the byte order mark, a zero-width space, a soft hyphen and a
// tag character.
var invisibles = []rune{
	0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
	0x200e, 0x200f, 0x061c, 0x2028, 0x2029, 0xfeff, 0x200b, 0x00ad, 0xe0041,
}

func TestIsInvisible(t *testing.T) {
	for _, r := range invisibles {
		if !isInvisible(r) {
			t.Errorf("isInvisible(U+%04X) = false", r)
		}
	}
	for _, r := range []rune{'a', ' ', '\t', '\n', 'é', 'ß', '→', '✅', 0xfe0f, 0x0301} {
		if isInvisible(r) {
			t.Errorf("isInvisible(U+%04X) = true: a visible character or a combining mark", r)
		}
	}
}

// invisibleResult is a run whose every text an adapter or a feature file
// can set holds every invisible character.
func invisibleResult() *Result {
	s := "x" + string(invisibles) + "y"
	r := sample()
	r.Target += s
	sc := &r.Scenarios[1]
	sc.Name, sc.Error, sc.Tags = sc.Name+s, sc.Error+s, []string{"@t" + s}
	sc.Steps[0].Text += s
	sc.Evidence[0].Message += s
	sc.Cases[1].Evidence[0].Diff += s
	sc.Gherkin = &Gherkin{Keyword: "Scenario", Description: s, Tags: []Tag{{Name: "@t" + s, Line: 2}},
		Feature: GherkinFeature{Name: "leaks" + s, Description: s, Line: 1}}
	return r
}

// TestInvisibleCharactersAreVisible: in every report format but
// results.json (the model itself, kept as it is) and on the console, each
// invisible character is a visible escape, never raw, JSON strings
// decoded.
func TestInvisibleCharactersAreVisible(t *testing.T) {
	r := invisibleResult()
	outputs := map[string]string{}
	for name, f := range Formats() {
		if name == "json" {
			continue
		}
		var buf bytes.Buffer
		if err := f.Render(&buf, r); err != nil {
			t.Fatal(err)
		}
		outputs[f.File] = buf.String()
		if strings.HasSuffix(f.File, "json") || strings.HasSuffix(f.File, "sarif") {
			var v any
			if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
				t.Fatalf("%s: %v", f.File, err)
			}
			outputs[f.File+" (decoded)"] = fmt.Sprint(v)
		}
	}
	var progress, text bytes.Buffer
	Progress(&progress, r.Scenarios[1])
	if err := Text(&text, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	outputs["progress"], outputs["text"], outputs["problem"] = progress.String(), text.String(), r.Scenarios[1].Problem()
	for what, out := range outputs {
		for _, c := range invisibles {
			if strings.ContainsRune(out, c) {
				t.Errorf("%s holds U+%04X raw", what, c)
			}
		}
		if !strings.Contains(out, `\u202e`) {
			t.Errorf("%s does not show U+202E as \\u202e", what)
		}
	}
}

func TestInert(t *testing.T) {
	tests := []struct{ name, in, want, why string }{
		{"plain", "a – é ✅", "a – é ✅", "visible text, UTF-8 included, is kept as it is"},
		{"bidi", "\u202egnp.exe", `\u202egnp.exe`, "an override shows as an escape"},
		{"beyond the BMP", "a\U000e0041", `a\U000e0041`, "a tag character shows as a long escape"},
		{"controls are not its concern", "a\x1b[31m", "a\x1b[31m", "each format has its own rule for controls"},
		{"invalid UTF-8", "a\xffb", "a\uFFFDb", "an invalid byte becomes U+FFFD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := inert(tt.in); got != tt.want {
				t.Errorf("inert(%q) = %q, want %q: %s", tt.in, got, tt.want, tt.why)
			}
		})
	}
}
