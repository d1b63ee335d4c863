package targets

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// SplitCommand splits a command line into words as a POSIX shell would, for
// NewProcess. It supports exactly:
//
//   - words separated by blanks; a backslash-newline joins lines;
//   - single quotes (everything literal), double quotes (backslash escapes
//     only $ ` " \ and newline) and backslash escapes outside quotes;
//   - empty quotes ("" or a pair of single quotes) as an empty word;
//   - a trailing # comment.
//
// Glob characters (* ? [) are kept literally: there is no globbing. It
// refuses, with an error wrapping ErrUnsupportedSyntax: command substitution
// ($(...) and backquotes), variables and parameter expansion ($NAME,
// ${...}), arithmetic ($((...))), a leading unquoted ~ (tilde expansion),
// brace expansion ({a,b}, {1..3}), pipelines, lists (; && || & newline),
// redirections, subshells and other compound commands, and leading NAME=value
// assignments (use WithExtraEnv). Quote such text to pass it literally. A
// line with no words gives ErrEmptyCommand; a syntax error (an unclosed
// quote) gives the parser's error.
func SplitCommand(line string) ([]string, error) {
	parser := syntax.NewParser(syntax.Variant(syntax.LangPOSIX))
	file, err := parser.Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, fmt.Errorf("split command: %w", err)
	}
	call, err := simpleCommand(file)
	if err != nil {
		return nil, fmt.Errorf("split command: %w", err)
	}
	for _, w := range call.Args {
		if err := checkWord(w); err != nil {
			return nil, fmt.Errorf("split command: %w", err)
		}
	}
	words, err := expand.Fields(&expand.Config{Env: expand.ListEnviron()}, call.Args...)
	if err != nil {
		return nil, fmt.Errorf("split command: %w", err)
	}
	return words, nil
}

// simpleCommand returns the file's only statement when it is one plain
// command without assignments or redirections.
func simpleCommand(file *syntax.File) (*syntax.CallExpr, error) {
	switch {
	case len(file.Stmts) == 0:
		return nil, ErrEmptyCommand
	case len(file.Stmts) > 1:
		return nil, unsupported(file.Stmts[1].Pos(), "a list of commands")
	}
	stmt := file.Stmts[0]
	switch {
	case stmt.Background || stmt.Coprocess || stmt.Disown:
		return nil, unsupported(stmt.Semicolon, "a background command")
	case stmt.Negated:
		return nil, unsupported(stmt.Pos(), "a negated command")
	case len(stmt.Redirs) > 0:
		return nil, unsupported(stmt.Redirs[0].Pos(), "a redirection")
	}
	call, ok := stmt.Cmd.(*syntax.CallExpr)
	switch {
	case !ok:
		return nil, unsupported(stmt.Pos(), describeCommand(stmt.Cmd))
	case len(call.Assigns) > 0:
		return nil, unsupported(call.Assigns[0].Pos(), "a variable assignment (use WithExtraEnv)")
	case len(call.Args) == 0:
		return nil, ErrEmptyCommand
	}
	return call, nil
}

// describeCommand names a compound command for an error message.
func describeCommand(cmd syntax.Command) string {
	switch cmd.(type) {
	case *syntax.BinaryCmd:
		return "a pipeline or && / || list"
	case *syntax.Subshell, *syntax.Block:
		return "a subshell or block"
	default:
		return "a compound command"
	}
}

// checkWord refuses every expansion but quote removal.
func checkWord(w *syntax.Word) error {
	if lit, ok := w.Parts[0].(*syntax.Lit); ok && strings.HasPrefix(lit.Value, "~") {
		return unsupported(w.Pos(), "tilde expansion (quote the ~)")
	}
	var err error
	syntax.Walk(w, func(n syntax.Node) bool {
		if err != nil || n == nil {
			return false
		}
		if what := expansion(n); what != "" {
			err = unsupported(n.Pos(), what)
			return false
		}
		return true
	})
	if err != nil {
		return err
	}
	if hasBraceExpansion(w) {
		return unsupported(w.Pos(), "brace expansion (quote the braces)")
	}
	return nil
}

// hasBraceExpansion reports whether w holds a brace expansion that would
// make more than one word: {a,b} or {1..3}; "{}" and "{a}" stay literal.
func hasBraceExpansion(w *syntax.Word) bool {
	split := *w
	if !syntax.SplitBraces(&split) {
		return false
	}
	found := false
	syntax.Walk(&split, func(n syntax.Node) bool {
		if b, ok := n.(*syntax.BraceExp); ok && (b.Sequence || len(b.Elems) > 1) {
			found = true
		}
		return !found
	})
	return found
}

// expansion names the expansion n performs, or "" when n is literal text or
// quoting.
func expansion(n syntax.Node) string {
	switch n := n.(type) {
	case *syntax.Word, *syntax.Lit, *syntax.DblQuoted:
		return ""
	case *syntax.SglQuoted:
		if n.Dollar {
			return "$'...' quoting"
		}
		return ""
	case *syntax.CmdSubst:
		if n.Backquotes {
			return "command substitution `...`"
		}
		return "command substitution $(...)"
	case *syntax.ParamExp:
		return "variable expansion $NAME"
	case *syntax.ArithmExp:
		return "arithmetic expansion $((...))"
	case *syntax.ProcSubst:
		return "process substitution"
	default:
		return fmt.Sprintf("%T", n)
	}
}

// unsupported wraps ErrUnsupportedSyntax with what was found and where.
func unsupported(pos syntax.Pos, what string) error {
	return fmt.Errorf("%w: %s at %s", ErrUnsupportedSyntax, what, pos)
}

// quoteWord quotes s for a POSIX shell, so that SplitCommand reads it back;
// strings POSIX cannot quote are shown in Go syntax.
func quoteWord(s string) string {
	q, err := syntax.Quote(s, syntax.LangPOSIX)
	if err != nil {
		return fmt.Sprintf("%q", s)
	}
	return q
}
