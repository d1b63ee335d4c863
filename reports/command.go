package reports

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Command returns words as one shell command line, the form of every
// reproducer toolcert prints. Each word is quoted by mvdan.cc/sh's
// syntax.Quote for Bash, and only when it needs it: a plain word stays as it
// is, others are single- or double-quoted, and a word with a control
// character or invalid UTF-8 becomes $'...'. The words are joined by single
// spaces, so bash, zsh and ksh read the line back as the same words, and
// two lines Command returns join into one with a space. A word with a NUL
// byte, which no argument can carry, is written in Go syntax instead:
// visible, but not read back as itself.
func Command(words ...string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		q, err := syntax.Quote(w, syntax.LangBash)
		if err != nil {
			q = fmt.Sprintf("%q", w)
		}
		quoted[i] = q
	}
	return strings.Join(quoted, " ")
}
