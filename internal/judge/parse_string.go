package judge

import (
	"unicode/utf8"

	"github.com/toolcert/toolcert/protocol"
)

// str reads a string; pos is at its opening quote. It returns the string
// unescaped.
func (d *document) str() (string, error) {
	d.pos++ // the opening quote
	var out []byte
	for {
		if d.pos == len(d.raw) {
			return "", d.truncated()
		}
		switch c := d.raw[d.pos]; {
		case c == '"':
			d.pos++
			return string(out), nil
		case c == '\\':
			r, err := d.escape()
			if err != nil {
				return "", err
			}
			out = utf8.AppendRune(out, r)
		case c < 0x20:
			return "", d.fail(protocol.ReasonSyntax, d.pos, "control character %#02x in a string", c)
		case c < 0x80:
			out = append(out, c)
			d.pos++
		default:
			n, err := d.encoded()
			if err != nil {
				return "", err
			}
			out = append(out, d.raw[d.pos:d.pos+n]...)
			d.pos += n
		}
	}
}

// encoded checks the multi-byte UTF-8 sequence at pos and returns its
// length. A sequence the input cuts short is truncated.
func (d *document) encoded() (int, error) {
	n, st := utf8Seq(d.raw[d.pos:])
	switch st {
	case seqCut:
		return 0, d.truncated()
	case seqInvalid:
		return 0, d.fail(protocol.ReasonInvalidUTF8, d.pos, "invalid UTF-8 in a string")
	}
	return n, nil
}

// escape reads the escape sequence at pos and returns the rune it stands
// for.
func (d *document) escape() (rune, error) {
	at := d.pos
	if at+1 == len(d.raw) {
		return 0, d.truncated()
	}
	if d.raw[at+1] == 'u' {
		return d.unicodeEscape()
	}
	r, ok := shortEscape(d.raw[at+1])
	if !ok {
		return 0, d.unexpected(at, "(an invalid escape)")
	}
	d.pos += 2
	return r, nil
}

// shortEscape returns the rune of the two-byte escape \c.
func shortEscape(c byte) (rune, bool) {
	switch c {
	case '"', '\\', '/':
		return rune(c), true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// unicodeEscape reads a \uXXXX escape at pos, and the low half that must
// follow it when it is a high surrogate.
func (d *document) unicodeEscape() (rune, error) {
	at := d.pos
	digits := d.raw[at+2:]
	if len(digits) < 4 {
		if allHex(digits) {
			return 0, d.truncated()
		}
		return 0, d.unexpected(at, "(an incomplete \\u escape)")
	}
	v, ok := hex4(digits)
	if !ok {
		return 0, d.unexpected(at, "(a \\u escape without four hex digits)")
	}
	d.pos = at + 6
	if v < 0xD800 || v > 0xDFFF {
		return v, nil
	}
	return d.pair(at, v)
}

// pair completes the surrogate first, escaped at offset at, with the low
// surrogate escape that must follow at pos. Whatever else follows is
// invalid_surrogate, and so is a low surrogate first; an input that ends
// where the low half could still come is truncated.
func (d *document) pair(at int, first rune) (rune, error) {
	next := d.raw[d.pos:]
	if len(next) < 6 {
		if lowEscapePrefix(next) {
			return 0, d.truncated()
		}
		return 0, d.fail(protocol.ReasonInvalidSurrogate, at, "surrogate %.6q without its low half", d.raw[at:])
	}
	second, ok := rune(0), next[0] == '\\' && next[1] == 'u'
	if ok {
		second, ok = hex4(next[2:6])
	}
	if !ok || first > 0xDBFF || second < 0xDC00 || second > 0xDFFF {
		return 0, d.fail(protocol.ReasonInvalidSurrogate, at, "surrogates %.12q are not a pair", d.raw[at:])
	}
	d.pos += 6
	return 0x10000 + (first-0xD800)<<10 + (second - 0xDC00), nil
}

// lowEscapePrefix reports whether b (shorter than six bytes) could begin
// an escaped low surrogate, \uDC00 to \uDFFF.
func lowEscapePrefix(b []byte) bool {
	for i, c := range b {
		v, isHex := hexValue(c)
		switch {
		case i == 0 && c != '\\', i == 1 && c != 'u':
			return false
		case i == 2 && c != 'd' && c != 'D':
			return false
		case i == 3 && !(isHex && v >= 0xC):
			return false
		case i >= 4 && !isHex:
			return false
		}
	}
	return true
}

// hex4 returns the value of four hex digits.
func hex4(b []byte) (rune, bool) {
	var v rune
	for _, c := range b[:4] {
		h, ok := hexValue(c)
		if !ok {
			return 0, false
		}
		v = v<<4 | rune(h)
	}
	return v, true
}

// allHex reports whether every byte of b is a hex digit.
func allHex(b []byte) bool {
	for _, c := range b {
		if _, ok := hexValue(c); !ok {
			return false
		}
	}
	return true
}

// hexValue returns the value of the hex digit c.
func hexValue(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
