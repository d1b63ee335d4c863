package gate

import (
	"mime"
	"net/http"
	"strings"

	"github.com/toolcert/toolcert/protocol"
)

// CheckContentType checks that header has exactly one Content-Type whose
// media type is want (compared without case) and whose only parameter, if
// any, is charset=utf-8. Anything else is a *Rejection{protocol.GateParse,
// "content_type"}.
func CheckContentType(header http.Header, want string) error {
	values := header.Values("Content-Type")
	if len(values) != 1 {
		return Reject(protocol.GateParse, protocol.ReasonContentType, "%d Content-Type headers, want one %s", len(values), want)
	}
	mt, params, err := mime.ParseMediaType(values[0])
	if err != nil {
		return Reject(protocol.GateParse, protocol.ReasonContentType, "Content-Type %.80q: %w", values[0], err)
	}
	if mt != strings.ToLower(want) {
		return Reject(protocol.GateParse, protocol.ReasonContentType, "Content-Type %.80q, want %s", mt, want)
	}
	for k, v := range params {
		if k != "charset" || !strings.EqualFold(v, "utf-8") {
			return Reject(protocol.GateParse, protocol.ReasonContentType, "Content-Type parameter %.40q=%.40q, want only charset=utf-8", k, v)
		}
	}
	return nil
}
