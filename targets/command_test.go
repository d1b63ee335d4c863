package targets

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"mvdan.cc/sh/v3/syntax"
)

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		line   string
		want   []string
	}{
		{"plain", "blanks separate words", "./adapter  --port\t8080", []string{"./adapter", "--port", "8080"}},
		{"double quotes", "a quoted blank stays", `a --name "b c"`, []string{"a", "--name", "b c"}},
		{"single quotes", "everything literal", `a 'b "c" \d $e'`, []string{"a", `b "c" \d $e`}},
		{"escapes", "backslash escapes outside quotes", `a b\ c \$HOME \"`, []string{"a", "b c", "$HOME", `"`}},
		{"escapes in double quotes", `only $ " \ are escaped`, `a "x\"y\\z\$w\n"`, []string{"a", `x"y\z$w\n`}},
		{"empty words", "empty quotes are words", `a "" ''`, []string{"a", "", ""}},
		{"joined parts", "adjacent quoted parts form one word", `a --k="v w"'x'`, []string{"a", "--k=v wx"}},
		{"continuation", "backslash-newline joins lines", "a \\\n  b", []string{"a", "b"}},
		{"comment", "a trailing comment is dropped", "a b # c d", []string{"a", "b"}},
		{"no globbing", "glob characters stay literal", `a *.json ?[x]`, []string{"a", "*.json", "?[x]"}},
		{"literal braces", "braces that expand to one word stay", `a {} x{y}`, []string{"a", "{}", "x{y}"}},
		{"tilde inside", "a tilde that is not leading stays", `a --dir=~/x "~"`, []string{"a", "--dir=~/x", "~"}},
		{"unicode", "bytes pass through", `a "héllo wörld"`, []string{"a", "héllo wörld"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SplitCommand(tt.line)
			if err != nil {
				t.Fatalf("SplitCommand(%q): %v", tt.line, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("SplitCommand(%q): %s (-want +got):\n%s", tt.line, tt.reason, diff)
			}
		})
	}
}

func TestSplitCommandErrors(t *testing.T) {
	tests := []struct {
		name    string
		line    string
		wantErr error  // nil: a parse error
		wantMsg string // part of the message
	}{
		{"empty", "", ErrEmptyCommand, "empty command"},
		{"blank", " \t ", ErrEmptyCommand, "empty command"},
		{"only comment", "# nothing", ErrEmptyCommand, "empty command"},
		{"command substitution", "a $(id)", ErrUnsupportedSyntax, "command substitution $(...) at 1:3"},
		{"quoted substitution", `a "$(id)"`, ErrUnsupportedSyntax, "command substitution $(...)"},
		{"backquotes", "a `id`", ErrUnsupportedSyntax, "command substitution `...`"},
		{"variable", "a $HOME", ErrUnsupportedSyntax, "variable expansion"},
		{"braced variable", "a ${X:-y}", ErrUnsupportedSyntax, "variable expansion"},
		{"arithmetic", "a $((1+2))", ErrUnsupportedSyntax, "arithmetic expansion"},
		{"pipeline", "a | b", ErrUnsupportedSyntax, "pipeline"},
		{"and list", "a && b", ErrUnsupportedSyntax, "pipeline or && / || list"},
		{"sequence", "a; b", ErrUnsupportedSyntax, "list of commands"},
		{"newline", "a\nb", ErrUnsupportedSyntax, "list of commands"},
		{"background", "a &", ErrUnsupportedSyntax, "background"},
		{"redirect", "a > out", ErrUnsupportedSyntax, "redirection"},
		{"assignment", "X=1 a", ErrUnsupportedSyntax, "use WithExtraEnv"},
		{"subshell", "(a)", ErrUnsupportedSyntax, "subshell"},
		{"compound", "if a; then b; fi", ErrUnsupportedSyntax, "compound command"},
		{"negated", "! a", ErrUnsupportedSyntax, "negated"},
		{"tilde", "a ~/x", ErrUnsupportedSyntax, "tilde expansion"},
		{"brace list", "a {b,c}", ErrUnsupportedSyntax, "brace expansion"},
		{"brace sequence", "a f{1..3}", ErrUnsupportedSyntax, "brace expansion"},
		{"unclosed double quote", `a "b`, nil, "without closing quote"},
		{"unclosed single quote", `a 'b`, nil, "without closing quote"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SplitCommand(tt.line)
			if err == nil {
				t.Fatalf("SplitCommand(%q) = %q, want an error", tt.line, got)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("SplitCommand(%q): %v, want errors.Is %v", tt.line, err, tt.wantErr)
			}
			var perr syntax.ParseError
			if tt.wantErr == nil && !errors.As(err, &perr) {
				t.Errorf("SplitCommand(%q): %v, want a syntax.ParseError", tt.line, err)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("SplitCommand(%q): %q, want it to mention %q", tt.line, err, tt.wantMsg)
			}
		})
	}
}

func TestProcessStringRoundTrip(t *testing.T) {
	argvs := [][]string{
		{"./adapter"},
		{"/opt/my adapter/bin", "--flag=a b", "", `it's "quoted"`, "$(not run)", "~", "{a,b}", "a\\b", "*"},
	}
	for _, argv := range argvs {
		p, err := NewProcess(argv)
		if err != nil {
			t.Fatalf("NewProcess(%q): %v", argv, err)
		}
		line, ok := strings.CutPrefix(p.String(), "process ")
		if !ok {
			t.Fatalf("String() = %q, want the prefix %q", p, "process ")
		}
		got, err := SplitCommand(line)
		if err != nil {
			t.Fatalf("SplitCommand(%q): %v", line, err)
		}
		if diff := cmp.Diff(argv, got); diff != "" {
			t.Errorf("SplitCommand(String()) (-want +got):\n%s", diff)
		}
	}
}
