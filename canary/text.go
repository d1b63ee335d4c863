package canary

import "unicode/utf8"

// separator ends each segment a binary or normalizing decoder appends to its
// view, so that no token can match across two segments. It is not a byte of
// any canary.
const separator = 0

// appendText appends to out every run of text in b that is at least minKeep
// bytes long, each followed by separator. Text is printable ASCII, tab, line
// breaks and valid multi-byte UTF-8; any encoded form of a canary is text,
// so dropping the rest loses nothing and keeps random binary out of chained
// decodings.
func appendText(out, b []byte, minKeep int) []byte {
	start := 0
	for i := 0; i < len(b); {
		n := textLen(b[i:])
		if n > 0 {
			i += n
			continue
		}
		if i-start >= minKeep {
			out = append(append(out, b[start:i]...), separator)
		}
		i++
		start = i
	}
	if len(b)-start >= minKeep {
		out = append(append(out, b[start:]...), separator)
	}
	return out
}

// textLen returns the length of the text character at the start of b, or 0
// when b starts with a control byte or invalid UTF-8.
func textLen(b []byte) int {
	c := b[0]
	switch {
	case c >= 0x20 && c < 0x7f, c == '\t', c == '\n', c == '\r':
		return 1
	case c < utf8.RuneSelf:
		return 0
	}
	r, n := utf8.DecodeRune(b)
	if r == utf8.RuneError || r < 0xa0 {
		return 0
	}
	return n
}
