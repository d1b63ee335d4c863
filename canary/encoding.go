package canary

// The encodings a [Leak] reports. A chain of two decodings is reported as
// their names joined by "+", in the order Scan applied them, such as
// "json-escape+base64" or "html-entity+nfkc".
const (
	// Raw: the token as planted.
	Raw = "raw"
	// JSONEscape: JSON string escapes (\u0074, \n, surrogate pairs) decoded
	// wherever they occur, without the part having to be valid JSON.
	JSONEscape = "json-escape"
	// HTMLEntity: character references (&#116; &#x63; &amp;) decoded as
	// html.UnescapeString does.
	HTMLEntity = "html-entity"
	// Percent: URL percent-decoding, '+' read as a space.
	Percent = "percent"
	// Base64: standard alphabet, padded or not, line breaks allowed, the
	// token at any byte alignment inside the decoded data.
	Base64 = "base64"
	// Base64URL: as Base64 with the URL alphabet.
	Base64URL = "base64url"
	// Hex: hexadecimal digits of either case, at any nibble alignment.
	Hex = "hex"
	// CaseFolded: Unicode full case folding.
	CaseFolded = "case-folded"
	// NFKC: Unicode NFKC normalization with format characters (category
	// Cf: zero-width space, soft hyphen, BOM, word joiner...) removed.
	NFKC = "nfkc"
	// UnicodeTag: Unicode tag characters (U+E0020..U+E007E), invisible
	// mirrors of printable ASCII, read as the ASCII they mirror.
	UnicodeTag = "unicode-tag"
)

// decoder is one decoding Scan applies to a view of a part. decode returns
// the new view, or false when it would equal src (nothing to decode) or hold
// nothing. minKeep is the shortest run of decoded text worth keeping from
// binary decodings.
type decoder struct {
	name string
	// idempotent decoders are not chained with themselves.
	idempotent bool
	decode     func(src []byte, minKeep int) ([]byte, bool)
}

// decoders is the fixed table of decodings, in the order Scan tries them;
// for a canary found in several views, the first one wins.
var decoders = [...]decoder{
	{name: JSONEscape, decode: decodeJSONEscapes},
	{name: HTMLEntity, decode: decodeHTMLEntities},
	{name: Percent, decode: decodePercent},
	{name: Base64, decode: decodeBase64Std},
	{name: Base64URL, decode: decodeBase64URL},
	{name: Hex, decode: decodeHex},
	{name: CaseFolded, idempotent: true, decode: foldCase},
	{name: NFKC, idempotent: true, decode: normalizeNFKC},
	{name: UnicodeTag, idempotent: true, decode: decodeTags},
}
