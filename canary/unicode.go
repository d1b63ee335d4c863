package canary

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// foldCase applies Unicode full case folding ("TC" and the Kelvin sign fold
// to "tc" and "k"). Invalid UTF-8 passes through unchanged.
func foldCase(src []byte) ([]byte, bool) {
	if isASCII(src) && !hasUpper(src) {
		return nil, false
	}
	var fold transform.SpanningTransformer = cases.Fold()
	out := make([]byte, 0, len(src)+len(src)/8)
	for i := 0; i < len(src); {
		if c := src[i]; c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		j := nonASCIIEnd(src, i)
		// Folding is context-free, so each non-ASCII span folds alone;
		// most spans (and invalid bytes) fold to themselves.
		if fold.Reset(); spanned(fold.Span(src[i:j], true)) == j-i {
			out = append(out, src[i:j]...)
		} else {
			out, _, _ = transform.Append(fold, out, src[i:j])
		}
		i = j
	}
	return out, !bytes.Equal(out, src)
}

// normalizeNFKC applies NFKC (fullwidth and mathematical letters become
// ASCII) and removes format characters (category Cf: U+200B, U+200D,
// U+FEFF, U+2060, U+00AD...). Every other non-ASCII character, and every
// invalid byte, is replaced by one separator per run: canaries and every
// decoding chained after this one are ASCII, and NFKC can otherwise expand
// hostile input more than tenfold. ASCII is copied as is and each non-ASCII
// span normalized alone, which differs from NFKC of the whole only where an
// ASCII letter would compose with a following mark into a non-ASCII one:
// that letter is kept, next to a separator, where NFKC drops it.
func normalizeNFKC(src []byte) ([]byte, bool) {
	if isASCII(src) {
		return nil, false
	}
	out := make([]byte, 0, len(src))
	var it norm.Iter
	for i := 0; i < len(src); {
		if src[i] < utf8.RuneSelf {
			out = append(out, src[i])
			i++
			continue
		}
		j := nonASCIIEnd(src, i)
		if norm.NFKC.QuickSpan(src[i:j]) == j-i { // already NFKC
			out = appendASCII(out, src[i:j])
		} else {
			for it.Init(norm.NFKC, src[i:j]); !it.Done(); {
				out = appendASCII(out, it.Next())
			}
		}
		i = j
	}
	return out, true
}

// spanned returns the length Span reported, ignoring its error, which only
// says why the span stopped.
func spanned(n int, _ error) int { return n }

// nonASCIIEnd returns the end of the run of non-ASCII bytes at b[i:].
func nonASCIIEnd(b []byte, i int) int {
	for i < len(b) && b[i] >= utf8.RuneSelf {
		i++
	}
	return i
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
)

// tagPrefix starts the UTF-8 encoding of every tag character.
const tagPrefix = "\xf3\xa0"

// decodeTags replaces each Unicode tag character by the ASCII character it
// mirrors and keeps everything else.
func decodeTags(src []byte) ([]byte, bool) {
	prefix := []byte(tagPrefix)
	first := bytes.Index(src, prefix)
	if first < 0 {
		return nil, false
	}
	out := append(make([]byte, 0, len(src)), src[:first]...)
	changed := false
	for rest := src[first:]; len(rest) > 0; {
		k := bytes.Index(rest, prefix)
		if k < 0 {
			out = append(out, rest...)
			break
		}
		out = append(out, rest[:k]...)
		rest = rest[k:]
		r, n := utf8.DecodeRune(rest)
		if r >= tagFirst && r <= tagLast {
			out = append(out, byte(r-0xE0000))
			changed = true
		} else {
			out = append(out, rest[:n]...)
		}
		rest = rest[n:]
	}
	return out, changed
}
