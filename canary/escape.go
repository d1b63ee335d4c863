package canary

import (
	"bytes"
	"html"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeJSONEscapes decodes every valid JSON string escape in src and keeps
// every other byte, so that a fragment or an invalid document still decodes.
// A lone surrogate becomes U+FFFD.
func decodeJSONEscapes(src []byte) ([]byte, bool) {
	first := bytes.IndexByte(src, '\\')
	if first < 0 {
		return nil, false
	}
	out := append(make([]byte, 0, len(src)), src[:first]...)
	changed := false
	for i := first; i < len(src); {
		if src[i] != '\\' {
			out = append(out, src[i])
			i++
			continue
		}
		r, n := jsonEscape(src[i:])
		if n == 0 {
			out = append(out, src[i])
			i++
			continue
		}
		out = utf8.AppendRune(out, r)
		i += n
		changed = true
	}
	return out, changed
}

// jsonEscape decodes the escape at the start of s, which starts with a
// backslash: the rune and the number of bytes it took, or n == 0 when s does
// not start with a valid escape.
func jsonEscape(s []byte) (r rune, n int) {
	if len(s) < 2 {
		return 0, 0
	}
	switch s[1] {
	case '"', '\\', '/':
		return rune(s[1]), 2
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		return unicodeEscape(s)
	}
	return 0, 0
}

// unicodeEscape decodes \uXXXX at the start of s, with the low half of a
// surrogate pair when one follows.
func unicodeEscape(s []byte) (rune, int) {
	r, ok := hex4(s[2:])
	if !ok {
		return 0, 0
	}
	if !utf16.IsSurrogate(r) {
		return r, 6
	}
	if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
		if lo, ok := hex4(s[8:]); ok {
			if d := utf16.DecodeRune(r, lo); d != utf8.RuneError {
				return d, 12
			}
		}
	}
	return utf8.RuneError, 6
}

// hex4 reads four hexadecimal digits.
func hex4(s []byte) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range s[:4] {
		v, ok := unhex(c)
		if !ok {
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	return r, true
}

// decodeHTMLEntities decodes character references as html.UnescapeString
// does; it is lenient about missing semicolons and unknown names.
func decodeHTMLEntities(src []byte) ([]byte, bool) {
	if bytes.IndexByte(src, '&') < 0 {
		return nil, false
	}
	out := []byte(html.UnescapeString(string(src)))
	return out, !bytes.Equal(out, src)
}

// decodePercent decodes %XX escapes and reads '+' as a space; a '%' not
// followed by two hexadecimal digits is kept as is.
func decodePercent(src []byte) ([]byte, bool) {
	if !bytes.ContainsAny(src, "%+") {
		return nil, false
	}
	out := make([]byte, 0, len(src))
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '+':
			out = append(out, ' ')
		case c == '%' && i+2 < len(src):
			hi, ok1 := unhex(src[i+1])
			lo, ok2 := unhex(src[i+2])
			if !ok1 || !ok2 {
				out = append(out, c)
				continue
			}
			out = append(out, hi<<4|lo)
			i += 2
		default:
			out = append(out, c)
		}
	}
	return out, !bytes.Equal(out, src)
}

// unhex returns the value of one hexadecimal digit of either case.
func unhex(c byte) (byte, bool) {
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
