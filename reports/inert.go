package reports

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// stripTerminal makes adapter text readable and inert: invalid UTF-8
// becomes U+FFFD, ANSI escape sequences and control characters (but tabs
// and newlines) are dropped, and so are the Unicode bidirectional controls
// that can make text read differently from what it is. Printable is its
// counterpart for a terminal, which shows what it dropped.
func stripTerminal(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			i += escapeLen(s[i:])
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if !isTerminalControl(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Printable returns s as a terminal can show it without acting on it, for
// any text that may quote an adapter (an error, evidence, an output tail)
// on its way to a terminal. Newlines and tabs stay; every other byte a
// terminal would act on becomes a visible escape: an invalid UTF-8 byte and
// a C0 control or DEL as \xNN (ESC as \x1b, so an escape sequence shows as
// text), a C1 control or a Unicode bidirectional control as \uNNNN. The
// rest of s is kept as it is, backslashes included.
func Printable(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < utf8.RuneSelf && isTerminalControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case isTerminalControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// isTerminalControl reports whether a terminal could act on r, or show
// text other than it is, were r written raw: a control character but tab
// and newline, or a Unicode bidirectional control.
func isTerminalControl(r rune) bool {
	return r != '\n' && r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r))
}

// escapeLen returns the length of the terminal escape sequence that s
// starts with (s[0] is ESC): a CSI sequence up to its final byte, an OSC,
// DCS or other string up to its terminator, or ESC and one character.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
			if s[i] < 0x20 || s[i] > 0x3f {
				return i
			}
		}
		return len(s)
	case ']', 'P', 'X', '^', '_':
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b {
				return i + min(2, len(s)-i)
			}
		}
		return len(s)
	}
	_, n := utf8.DecodeRuneInString(s[1:])
	return 1 + n
}

// clipText keeps the first maxLines lines and at most maxBytes bytes of s,
// cut at a rune boundary, and says when it cut.
func clipText(s string, maxLines, maxBytes int) string {
	cut := false
	if lines := strings.SplitAfterN(s, "\n", maxLines+1); len(lines) > maxLines {
		s, cut = strings.Join(lines[:maxLines], ""), true
	}
	if len(s) > maxBytes {
		s = s[:maxBytes]
		for r, n := utf8.DecodeLastRuneInString(s); r == utf8.RuneError && n == 1; r, n = utf8.DecodeLastRuneInString(s) {
			s = s[:len(s)-1] // a rune cut in two
		}
		cut = true
	}
	if cut {
		s = strings.TrimRight(s, "\n") + "\n… (truncated)"
	}
	return s
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
