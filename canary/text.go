package canary

import "unicode/utf8"

// separator ends each segment a binary or normalizing decoder appends to its
// view, so that no token can match across two segments. It is not a byte of
// any canary.
const separator = 0

// Byte classes for appendText.
const (
	notText  = iota // ASCII control, DEL, or a byte no UTF-8 rune starts with
	textByte        // printable ASCII, tab, line break
	leadByte        // may start a multi-byte UTF-8 rune
)

// byteClass classifies each byte as the first byte of a character.
var byteClass = func() (t [256]byte) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = textByte
	}
	t['\t'], t['\n'], t['\r'] = textByte, textByte, textByte
	for c := 0xc2; c <= 0xf4; c++ {
		t[c] = leadByte
	}
	return t
}()

// appendText appends to out every run of text in b that is at least minKeep
// bytes long, each followed by separator. Text is printable ASCII, tab, line
// breaks and valid multi-byte UTF-8 other than C1 controls; any encoded
// form of a canary is text, so dropping the rest loses nothing and keeps
// random binary out of chained decodings.
func appendText(out, b []byte, minKeep int) []byte {
	start := 0
	for i := 0; i < len(b); {
		switch byteClass[b[i]] {
		case textByte:
			i++
			continue
		case leadByte:
			if r, n := utf8.DecodeRune(b[i:]); r >= 0xa0 && n > 1 {
				i += n
				continue
			}
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
