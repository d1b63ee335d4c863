package judge

import (
	"bytes"

	"github.com/toolcert/toolcert/protocol"
)

// decoderNestingCap mirrors gate: gate reads JSON through a decoder that
// refuses to nest deeper than 10000 levels and reports it as a grammar
// error, so a MaxDepth above 10000 gives syntax, not depth_limit, past that
// level.
const decoderNestingCap = 10000

// fail returns a parse rejection with reason for the fault at offset at;
// format and args describe it.
func (d *document) fail(reason string, at int, format string, args ...any) error {
	return Reject(protocol.GateParse, reason, format+" at offset %d", append(args, at)...)
}

// truncated rejects a document that ends before it is whole.
func (d *document) truncated() error {
	if len(bytes.TrimLeft(d.raw, " \t\r\n")) == 0 {
		return d.fail(protocol.ReasonTruncated, len(d.raw), "empty document")
	}
	return d.fail(protocol.ReasonTruncated, len(d.raw), "document ends before it is whole")
}

// unexpected rejects the byte at offset at, which the grammar does not
// allow there (where says what was being read). The reason is what the
// bytes from at spell: the start of invalid UTF-8 (invalid_utf8), an
// escaped surrogate outside a string or in a broken escape
// (invalid_surrogate), NaN or Infinity (nonfinite_number); anything else is
// syntax.
//
// Mirrors gate, which names a fault by the bytes at its offset, so:
//   - "[1 NaN]" (a missing comma) and "[1-NaN]" are nonfinite_number;
//   - "+Infinity" is nonfinite_number while "+NaN" is syntax;
//   - a \u escape with bad hex digits after "\uD8" to "\uDF" ("\uD8zz") is
//     invalid_surrogate when at least six bytes remain from its backslash,
//     syntax otherwise, and "\uD800" outside a string is invalid_surrogate.
func (d *document) unexpected(at int, where string) error {
	rest := d.raw[at:]
	switch {
	case len(rest) == 0:
		return d.truncated()
	case rest[0] >= 0x80 && utf8Check(rest) != seqValid:
		return d.fail(protocol.ReasonInvalidUTF8, at, "invalid UTF-8 %s", where)
	case spellsSurrogateEscape(rest):
		return d.fail(protocol.ReasonInvalidSurrogate, at, "escaped surrogate %.6q %s", rest, where)
	case spellsNonfinite(rest):
		return d.fail(protocol.ReasonNonfinite, at, "NaN or Infinity %s", where)
	}
	return d.fail(protocol.ReasonSyntax, at, "unexpected %.1q %s", rest, where)
}

// notName rejects what stands at pos where a member name must: a literal
// or a number is read whole first (a fault inside it, or its end, is
// reported as such), anything else is unexpected.
//
// Mirrors gate: "{tru" is truncated and "{-Infinity" nonfinite_number,
// though a name can never start with 't' or '-'.
func (d *document) notName() error {
	start := d.pos
	var err error
	switch c := d.raw[start]; {
	case c == 't' || c == 'f' || c == 'n':
		_, err = d.literal()
	case c == '-' || isDigit(c):
		_, err = d.numberText()
	default:
		return d.unexpected(start, "where a member name must be")
	}
	if err != nil {
		return err
	}
	return d.fail(protocol.ReasonSyntax, start, "member name %q is not a string", d.raw[start:d.pos])
}

// spellsSurrogateEscape reports whether b starts with the six bytes of a
// \u escape whose first two hex digits are D8 to DF (any case).
func spellsSurrogateEscape(b []byte) bool {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' || (b[2] != 'd' && b[2] != 'D') {
		return false
	}
	v, ok := hexValue(b[3])
	return ok && v >= 8
}

// spellsNonfinite reports whether b starts with NaN or Infinity, alone or
// after the signs gate recognises ("-NaN", "-Infinity", "+Infinity").
func spellsNonfinite(b []byte) bool {
	for _, word := range []string{"NaN", "Infinity", "-NaN", "-Infinity", "+Infinity"} {
		if bytes.HasPrefix(b, []byte(word)) {
			return true
		}
	}
	return false
}
