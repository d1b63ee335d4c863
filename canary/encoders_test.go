package canary

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode/utf8"
)

// encoder renders a token the way a leaking adapter might; rng varies the
// details (which characters, alignment, case, surrounding bytes).
type encoder struct {
	// want is the encoding Scan must report; alt, when set, is also
	// acceptable because that rendering is valid in both.
	want, alt string
	fn        func(tok string, rng *rand.Rand) string
}

// encoders lists one encoder per encoding and per chain Scan must see
// through.
func encoders() []encoder {
	return []encoder{
		{want: Raw, fn: func(tok string, _ *rand.Rand) string { return tok }},
		{want: JSONEscape, fn: jsonEscapeSome},
		{want: HTMLEntity, fn: htmlEntitySome},
		{want: Percent, fn: percentSome},
		{want: Base64, fn: base64Std},
		{want: Base64URL, fn: base64URLOnly},
		{want: Base64URL, alt: Base64, fn: base64URL},
		{want: Hex, fn: hexAnyAlignment},
		{want: CaseFolded, fn: caseChanged},
		{want: NFKC, fn: fullwidthAndInvisible},
		{want: UnicodeTag, fn: unicodeTags},
		{want: "json-escape+base64", fn: chain(base64Std, escapeEvery8(`\"`, jsonUnicodeEscape))},
		{want: "html-entity+nfkc", fn: chain(fullwidthAndInvisible, htmlEntityNonASCII)},
		{want: "percent+base64", fn: chain(base64Std, escapeEvery8(queryReserved, percentEscape))},
		{want: "hex+base64", fn: chain(base64Std, hexAnyAlignment)},
		{want: "base64+base64", fn: chain(base64Std, base64Std)},
		{want: "base64+json-escape", fn: chain(jsonEscapeSome, base64Std)},
		{want: "nfkc+case-folded", fn: chain(fullwidthAndInvisible, upperAll)},
		{want: "json-escape+json-escape", fn: chain(jsonEscapeSome, jsonEscapeSome)},
		{want: "html-entity+html-entity", fn: chain(htmlEntitySome, htmlEntityAmp)},
		{want: "percent+percent", fn: chain(percentSome, percentSome)},
		{want: "json-escape+nfkc", fn: chain(fullwidthAndInvisible, jsonEscapeNonASCII)},
		{want: "json-escape+case-folded", fn: chain(upperAll, jsonEscapeSome)},
		{want: "hex+case-folded", fn: chain(upperAll, hexAnyAlignment)},
		{want: "base64+nfkc", fn: chain(fullwidthAndInvisible, base64Std)},
		{want: "percent+nfkc", fn: chain(fullwidthAndInvisible, percentNonASCII)},
		{want: "json-escape+unicode-tag", fn: chain(unicodeTags, jsonEscapeNonASCII)},
	}
}

// chain applies inner, then outer: the adapter's second encoding.
func chain(inner, outer func(string, *rand.Rand) string) func(string, *rand.Rand) string {
	return func(tok string, rng *rand.Rand) string { return outer(inner(tok, rng), rng) }
}

// mapSome rewrites each rune with probability 1/2, at least one, and
// every rune in always.
func mapSome(s string, rng *rand.Rand, always string, f func(rune, *rand.Rand) string) string {
	force := rng.IntN(utf8.RuneCountInString(s))
	var b strings.Builder
	i := 0
	for _, r := range s {
		if i == force || rng.IntN(2) == 0 || strings.ContainsRune(always, r) {
			b.WriteString(f(r, rng))
		} else {
			b.WriteRune(r)
		}
		i++
	}
	return b.String()
}

// escapeEvery8 rewrites each rune with probability 1/4, at least every
// eighth one, so that no stretch long enough to hold an encoded token is
// left plain, and every rune in always.
func escapeEvery8(always string, f func(rune, *rand.Rand) string) func(string, *rand.Rand) string {
	return func(s string, rng *rand.Rand) string {
		var b strings.Builder
		plain := 0
		for _, r := range s {
			if plain == 7 || rng.IntN(4) == 0 || strings.ContainsRune(always, r) {
				b.WriteString(f(r, rng))
				plain = 0
				continue
			}
			b.WriteRune(r)
			plain++
		}
		return b.String()
	}
}

func jsonUnicodeEscape(r rune, rng *rand.Rand) string {
	if r == '/' && rng.IntN(2) == 0 {
		return `\/`
	}
	if r > 0xffff {
		hi, lo := r>>10-0x40+0xd800, r&0x3ff+0xdc00 // UTF-16 surrogate pair
		return fmt.Sprintf(`\u%04x\u%04X`, hi, lo)
	}
	return randomCase(fmt.Sprintf(`\u%04x`, r), rng, 2)
}

// jsonEscapeSome writes some runes as \u escapes, and always escapes '\\'
// and '"' as a JSON encoder would.
func jsonEscapeSome(s string, rng *rand.Rand) string {
	return mapSome(s, rng, `\"`, func(r rune, rng *rand.Rand) string {
		if r == '\\' || r == '"' {
			return `\` + string(r)
		}
		return jsonUnicodeEscape(r, rng)
	})
}

func jsonEscapeNonASCII(s string, rng *rand.Rand) string {
	return mapNonASCII(s, func(r rune) string { return jsonUnicodeEscape(r, rng) })
}

func htmlEntity(r rune, rng *rand.Rand) string {
	if rng.IntN(2) == 0 {
		return fmt.Sprintf("&#%d;", r)
	}
	return randomCase(fmt.Sprintf("&#x%x;", r), rng, 3)
}

func htmlEntitySome(s string, rng *rand.Rand) string { return mapSome(s, rng, "", htmlEntity) }

// htmlEntityAmp escapes every '&', as double escaping does.
func htmlEntityAmp(s string, _ *rand.Rand) string {
	return strings.ReplaceAll(s, "&", "&amp;")
}

func htmlEntityNonASCII(s string, rng *rand.Rand) string {
	return mapNonASCII(s, func(r rune) string { return htmlEntity(r, rng) })
}

func percentEscape(r rune, rng *rand.Rand) string {
	var b strings.Builder
	for _, c := range []byte(string(r)) {
		b.WriteString(randomCase(fmt.Sprintf("%%%02x", c), rng, 1))
	}
	return b.String()
}

// queryReserved are the characters a query encoder always escapes among
// those an encoded token may hold.
const queryReserved = "%+/=&"

// percentSome escapes some runes and every one in queryReserved.
func percentSome(s string, rng *rand.Rand) string {
	return mapSome(s, rng, queryReserved, percentEscape)
}

func percentNonASCII(s string, rng *rand.Rand) string {
	return mapNonASCII(s, func(r rune) string { return percentEscape(r, rng) })
}

func mapNonASCII(s string, f func(rune) string) string {
	var b strings.Builder
	for _, r := range s {
		if r < utf8.RuneSelf {
			b.WriteRune(r)
			continue
		}
		b.WriteString(f(r))
	}
	return b.String()
}

// randomBytes returns up to n random bytes that are not text (control
// bytes or bytes 0x80..0xff), so that they shift the alignment of what
// follows without joining it: no backslash escaping its first byte, no base64
// character changing its alphabet.
func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, rng.IntN(n+1))
	for i := range b {
		b[i] = byte(rng.Uint32())
		if b[i] < 0x80 {
			b[i] %= 0x20
		}
	}
	return b
}

// wrapped surrounds s with random bytes, so the token sits at any alignment
// inside the encoded data.
func wrapped(s string, rng *rand.Rand) []byte {
	b := append(randomBytes(rng, 5), s...)
	return append(b, randomBytes(rng, 5)...)
}

func base64Std(s string, rng *rand.Rand) string {
	enc := []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding}[rng.IntN(2)]
	out := enc.EncodeToString(wrapped(s, rng))
	if rng.IntN(4) == 0 { // MIME line breaks
		out = lineBreaks(out, 8+rng.IntN(60))
	}
	return out
}

func base64URL(s string, rng *rand.Rand) string {
	enc := []*base64.Encoding{base64.URLEncoding, base64.RawURLEncoding}[rng.IntN(2)]
	return enc.EncodeToString(wrapped(s, rng))
}

// base64URLOnly puts one or two 0xff bytes before s so that the quantum
// holding the first byte of s also holds '_', which the standard alphabet
// lacks.
func base64URLOnly(s string, rng *rand.Rand) string {
	prefix := bytes.Repeat([]byte{0xff}, 1+rng.IntN(2))
	return base64.RawURLEncoding.EncodeToString(append(prefix, s...))
}

func lineBreaks(s string, width int) string {
	var b strings.Builder
	for len(s) > width {
		b.WriteString(s[:width] + "\r\n")
		s = s[width:]
	}
	b.WriteString(s)
	return b.String()
}

// hexAnyAlignment renders hex of either case, sometimes after a stray hex
// digit that shifts the nibble alignment.
func hexAnyAlignment(s string, rng *rand.Rand) string {
	out := hex.EncodeToString(wrapped(s, rng))
	if rng.IntN(2) == 0 {
		out = strings.ToUpper(out)
	}
	if rng.IntN(2) == 0 {
		out = "a" + out
	}
	return out
}

// caseChanged upper-cases some letters, at least one, and sometimes writes
// k and s as the Kelvin sign and the long s, which fold to them.
func caseChanged(s string, rng *rand.Rand) string {
	out := mapSome(s, rng, "", func(r rune, rng *rand.Rand) string {
		switch {
		case r == 'k' && rng.IntN(2) == 0:
			return "\u212a"
		case r == 's' && rng.IntN(2) == 0:
			return "\u017f"
		}
		return strings.ToUpper(string(r))
	})
	if out == s { // only digits changed
		out = strings.ToUpper(s[:1]) + s[1:]
	}
	return out
}

func upperAll(s string, _ *rand.Rand) string { return strings.ToUpper(s) }

// fullwidthAndInvisible writes some letters and digits as fullwidth or
// mathematical forms, keeps their case, and puts format characters between
// characters.
func fullwidthAndInvisible(s string, rng *rand.Rand) string {
	invisible := []string{"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"}
	return mapSome(s, rng, "", func(r rune, rng *rand.Rand) string {
		out := string(compatibilityForm(r, rng))
		if rng.IntN(3) == 0 {
			out += invisible[rng.IntN(len(invisible))]
		}
		return out
	})
}

func compatibilityForm(r rune, rng *rand.Rand) rune {
	switch {
	case 'a' <= r && r <= 'z' && rng.IntN(2) == 0:
		return 0x1d41a + r - 'a' // mathematical bold small
	case 'a' <= r && r <= 'z':
		return 0xff41 + r - 'a'
	case 'A' <= r && r <= 'Z':
		return 0xff21 + r - 'A'
	case '0' <= r && r <= '9':
		return 0xff10 + r - '0'
	}
	return r
}

func unicodeTags(s string, _ *rand.Rand) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(0xe0000 + r)
	}
	return b.String()
}

// randomCase upper-cases the letters of s from index from on, or not.
func randomCase(s string, rng *rand.Rand, from int) string {
	if rng.IntN(2) == 0 {
		return s
	}
	return s[:from] + strings.ToUpper(s[from:])
}
