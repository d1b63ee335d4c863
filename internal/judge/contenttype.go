package judge

import (
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/toolcert/toolcert/protocol"
)

// CheckContentType checks that header holds exactly one Content-Type,
// whose media type is want (ignoring case) and whose only parameter, if
// any, is charset=utf-8 (the value ignoring case). Anything else is a
// *Rejection at gate parse, reason content_type.
//
// Mirrors gate, which reads the header as mime.ParseMediaType does: white
// space (Unicode white space included) around the media type and the
// parameters is ignored, a trailing ";" is allowed, a parameter repeated
// with the same value counts once, a value may be a quoted string, and
// parameters are read as RFC 2231 says, so "charset*=utf-8'en'utf-8" is a
// charset of utf-8, it overrides a plain charset=latin1 before it, and a
// starred parameter that does not decode ("foo*=x", or "foo*1=x" without
// "foo*0") is dropped rather than refused.
func CheckContentType(header http.Header, want string) error {
	values := header.Values("Content-Type")
	if len(values) != 1 {
		return contentType("%d Content-Type headers, want one %s", len(values), want)
	}
	mediaType, params, err := parseMediaType(values[0])
	if err != nil {
		return contentType("Content-Type %.80q: %w", values[0], err)
	}
	if mediaType != strings.ToLower(want) {
		return contentType("Content-Type %.80q, want %s", mediaType, want)
	}
	for _, name := range slices.Sorted(maps.Keys(params)) {
		if name != "charset" || !strings.EqualFold(params[name], "utf-8") {
			return contentType("Content-Type parameter %.40q=%.40q, want only charset=utf-8", name, params[name])
		}
	}
	return nil
}

// contentType returns a content_type rejection.
func contentType(format string, args ...any) *Rejection {
	return Reject(protocol.GateParse, protocol.ReasonContentType, format, args...)
}
