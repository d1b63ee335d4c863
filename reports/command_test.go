package reports

import (
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

func TestCommand(t *testing.T) {
	tests := []struct {
		name  string
		why   string
		words []string
		want  string
	}{
		{"plain", "words without shell characters stay as they are", []string{"toolcert", "run", "--seed", "42", "--case", "a/b/c.d:e"}, "toolcert run --seed 42 --case a/b/c.d:e"},
		{"space", "a word with a space is one word", []string{"--target-cmd", "/bin/adapter --flag"}, "--target-cmd '/bin/adapter --flag'"},
		{"single quote", "a word with a single quote is double-quoted", []string{"it's"}, `"it's"`},
		{"expansion", "$, backquotes and globs are not expanded", []string{"$HOME", "`id`", "*.json"}, `'$HOME' '` + "`id`" + `' '*.json'`},
		{"comment", "a # would start a comment", []string{"case#first"}, "'case#first'"},
		{"assignment", "a leading word with = would be an assignment", []string{"A=b", "run"}, "'A=b' run"},
		{"empty", "an empty word is kept as a word", []string{"--fixtures", ""}, "--fixtures ''"},
		{"control", "a terminal escape is written as $'...', inert on a terminal", []string{"\x1b[31mred"}, `$'\x1b[31mred'`},
		{"nul", "a NUL byte no argument can carry is shown in Go syntax", []string{"a\x00b"}, `"a\x00b"`},
		{"no words", "nothing is an empty line", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Command(tt.words...); got != tt.want {
				t.Errorf("Command(%q) = %s, want %s: %s", tt.words, got, tt.want, tt.why)
			}
		})
	}
}

// TestCommandBash: bash reads every line Command writes back as the same
// words. bash is the judge, not the quoting library.
func TestCommandBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash:", err)
	}
	words := []string{"plain", "two words", "it's", `a "quoted" \ word`, "$HOME", "`id`", "*", "~", "#x", "a=b", "{a,b}", "",
		"tab\there", "new\nline", "\x1b]0;title\x07", "\xff\xfe", "ünïcödé", "a!b"}
	var out bytes.Buffer
	cmd := exec.Command(bash, "--noprofile", "--norc", "-c", `printf '%s\0' `+Command(words...))
	cmd.Stdout, cmd.Env = &out, []string{"HOME=/nonexistent"}
	if err := cmd.Run(); err != nil {
		t.Fatalf("bash: %v", err)
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\x00"), "\x00")
	if !slices.Equal(got, words) {
		t.Errorf("bash read back %q\nwant %q\nline: %s", got, words, Command(words...))
	}
}
