package canary

// The encodings a [Leak] reports, in the order Scan tries them after Raw.
// A chain of two decodings is reported as their names joined by "+", in the
// order Scan applied them, such as "json-escape+base64" or
// "html-entity+nfkc".
const (
	// Raw is the token as planted.
	Raw = "raw"
	// JSONEscape is JSON string escapes (\u0074, \n, surrogate pairs)
	// decoded wherever they occur, without the part having to be valid
	// JSON.
	JSONEscape = "json-escape"
	// HTMLEntity is character references (&#116; &#x63; &amp;) decoded as
	// html.UnescapeString does.
	HTMLEntity = "html-entity"
	// Percent is URL percent-decoding, '+' read as a space.
	Percent = "percent"
	// Base64 is the standard alphabet, padded or not, line breaks allowed,
	// the token at any byte alignment inside the decoded data.
	Base64 = "base64"
	// Base64URL is Base64 in the URL alphabet; a run of base64 is read as
	// URL-alphabet when it holds '-' or '_' and neither '+' nor '/'.
	Base64URL = "base64url"
	// Hex is hexadecimal digits of either case, at any nibble alignment.
	Hex = "hex"
	// CaseFolded is Unicode full case folding ("TC" and the Kelvin sign
	// read as "tc" and "k").
	CaseFolded = "case-folded"
	// NFKC is Unicode NFKC normalization (fullwidth and mathematical
	// letters read as ASCII) with format characters, category Cf, removed
	// (zero-width space and joiners, soft hyphen, BOM, word joiner...).
	NFKC = "nfkc"
	// UnicodeTag is Unicode tag characters (U+E0020..U+E007E), invisible
	// mirrors of printable ASCII that language models read, read as the
	// ASCII they mirror.
	UnicodeTag = "unicode-tag"
)

// view is a part as one decoding, or chain of two, shows it.
type view struct {
	enc  string
	data []byte
}

// decoder is one decoding Scan applies to a view of a part. decode returns
// the new views, none when there is nothing to decode (the result would
// equal src, or hold nothing); only base64 returns two.
type decoder struct {
	// idempotent decoders are not chained with themselves.
	idempotent bool
	// last decoders only end chains: what they produce is no longer an
	// encoding worth decoding further.
	last   bool
	decode func(src []byte, st *decodeState) []view
}

// decoders is the fixed table of decodings, in the order Scan tries them;
// for a canary found in several views, the first one wins.
var decoders = [...]decoder{
	{decode: textDecoder(JSONEscape, decodeJSONEscapes)},
	{decode: textDecoder(HTMLEntity, decodeHTMLEntities)},
	{decode: textDecoder(Percent, decodePercent)},
	{decode: decodeBase64},
	{decode: decodeHex},
	// Case folding breaks base64 and adds nothing to the other decoders,
	// which read either case; nfkc+case-folded covers a case-changed token
	// with format characters inside.
	{idempotent: true, last: true, decode: textDecoder(CaseFolded, foldCase)},
	{idempotent: true, decode: textDecoder(NFKC, normalizeNFKC)},
	{idempotent: true, decode: textDecoder(UnicodeTag, decodeTags)},
}

// textDecoder adapts a decoding that maps text to text, and reports false
// when it changes nothing, to the decoder signature.
func textDecoder(enc string, f func(src []byte) ([]byte, bool)) func([]byte, *decodeState) []view {
	return func(src []byte, _ *decodeState) []view {
		if out, ok := f(src); ok {
			return []view{{enc: enc, data: out}}
		}
		return nil
	}
}
