package gate

import (
	"bytes"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toolcert/toolcert/protocol"
)

// classify maps an error of the jsontext decoder to a parse *Rejection.
//
// jsontext exports sentinels only for duplicate names and the end of input;
// invalid UTF-8, bad surrogates and NaN/Infinity surface as a
// *jsontext.SyntacticError whose ByteOffset points at the offending bytes.
// classify therefore looks at the input bytes at that offset, never at the
// error message.
func (p *parser) classify(err error) error {
	switch {
	case err == io.EOF, errors.Is(err, io.ErrUnexpectedEOF):
		return &Rejection{Gate: protocol.GateParse, Reason: protocol.ReasonTruncated, Err: err}
	case errors.Is(err, jsontext.ErrDuplicateName):
		return &Rejection{Gate: protocol.GateParse, Reason: protocol.ReasonDuplicateName, Err: err}
	}
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) || se.ByteOffset < 0 || se.ByteOffset > int64(len(p.raw)) {
		return &Rejection{Gate: protocol.GateParse, Reason: protocol.ReasonSyntax, Err: err}
	}
	return &Rejection{Gate: protocol.GateParse, Reason: reasonAt(p.raw, int(se.ByteOffset)), Err: err}
}

// reasonAt names the fault of the bytes at raw[off:].
func reasonAt(raw []byte, off int) string {
	at := raw[off:]
	switch {
	case invalidRuneAt(at):
		return protocol.ReasonInvalidUTF8
	case surrogateEscapeAt(at):
		return protocol.ReasonInvalidSurrogate
	case nonfiniteAt(raw, off):
		return protocol.ReasonNonfinite
	default:
		return protocol.ReasonSyntax
	}
}

// invalidRuneAt reports whether b starts with a byte that is not valid UTF-8.
func invalidRuneAt(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	r, size := utf8.DecodeRune(b)
	return r == utf8.RuneError && size == 1
}

// surrogateEscapeAt reports whether b starts with a \uXXXX escape of a
// UTF-16 surrogate (U+D800 to U+DFFF).
func surrogateEscapeAt(b []byte) bool {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return false
	}
	return (b[2] == 'd' || b[2] == 'D') && bytes.IndexByte([]byte("89abcdefABCDEF"), b[3]) >= 0
}

// nonfiniteAt reports whether raw[off:] starts a NaN or Infinity literal,
// including -Infinity (the decoder reports it at the 'I').
func nonfiniteAt(raw []byte, off int) bool {
	at := raw[off:]
	for _, lit := range []string{"NaN", "Infinity", "-Infinity", "+Infinity", "-NaN"} {
		if bytes.HasPrefix(at, []byte(lit)) {
			return true
		}
	}
	return off > 0 && (raw[off-1] == '-' || raw[off-1] == '+') &&
		(bytes.HasPrefix(at, []byte("Infinity")) || bytes.HasPrefix(at, []byte("NaN")))
}
