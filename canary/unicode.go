package canary

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// foldCase applies Unicode full case folding ("TC" and the Kelvin sign fold
// to "tc" and "k"). Invalid UTF-8 passes through unchanged.
func foldCase(src []byte, _ int) ([]byte, bool) {
	if isASCII(src) {
		if !hasUpper(src) {
			return nil, false
		}
		return bytes.ToLower(src), true
	}
	out := cases.Fold().Bytes(src)
	return out, !bytes.Equal(out, src)
}

// normalizeNFKC applies NFKC (fullwidth and mathematical letters become
// ASCII) and removes format characters (category Cf: U+200B, U+200D,
// U+FEFF, U+2060, U+00AD...). Every other non-ASCII character, and every
// invalid byte, is replaced by one separator per run: canaries and every
// decoding chained after this one are ASCII, and NFKC can otherwise expand
// hostile input more than tenfold.
func normalizeNFKC(src []byte, _ int) ([]byte, bool) {
	if isASCII(src) {
		return nil, false
	}
	out := make([]byte, 0, len(src))
	var it norm.Iter
	it.Init(norm.NFKC, src)
	for !it.Done() {
		out = appendASCII(out, it.Next())
	}
	return out, true
}

// appendASCII appends the ASCII bytes of seg to out, drops format
// characters and stands one separator for any run of other characters.
func appendASCII(out, seg []byte) []byte {
	for len(seg) > 0 {
		if c := seg[0]; c < utf8.RuneSelf {
			out = append(out, c)
			seg = seg[1:]
			continue
		}
		r, n := utf8.DecodeRune(seg)
		seg = seg[n:]
		if n > 1 && unicode.Is(unicode.Cf, r) {
			continue
		}
		if len(out) == 0 || out[len(out)-1] != separator {
			out = append(out, separator)
		}
	}
	return out
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func hasUpper(b []byte) bool {
	for _, c := range b {
		if 'A' <= c && c <= 'Z' {
			return true
		}
	}
	return false
}

// Unicode tag characters U+E0020..U+E007E mirror printable ASCII and are
// invisible in most renderings, yet language models read them.
const (
	tagFirst = 0xE0020
	tagLast  = 0xE007E
	tagLead  = 0xF3 // first byte of the UTF-8 encoding of every tag character
)

// decodeTags replaces each Unicode tag character by the ASCII character it
// mirrors and keeps everything else.
func decodeTags(src []byte, _ int) ([]byte, bool) {
	if bytes.IndexByte(src, tagLead) < 0 {
		return nil, false
	}
	out := make([]byte, 0, len(src))
	changed := false
	for len(src) > 0 {
		r, n := utf8.DecodeRune(src)
		if r >= tagFirst && r <= tagLast {
			out = append(out, byte(r-0xE0000))
			changed = true
		} else {
			out = append(out, src[:n]...)
		}
		src = src[n:]
	}
	return out, changed
}
