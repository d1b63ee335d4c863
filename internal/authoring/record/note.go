package record

import (
	"fmt"
	"mime"
	"net/http"
	"strings"

	"github.com/toolcert/toolcert/internal/judge"
)

// noteFor returns why the answer resp, whose body is body, cannot be an
// accepted example, "" when it can: every reason, joined.
func noteFor(resp *http.Response, body []byte) string {
	if enc := resp.Header.Get("Content-Encoding"); enc != "" && !strings.EqualFold(enc, "identity") {
		return fmt.Sprintf("Content-Encoding %.40q: the body is kept as the client received it, encoded", enc)
	}
	var notes []string
	if resp.Uncompressed {
		notes = append(notes, "the client's transport decompressed the body: it is not what the upstream sent")
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		notes = append(notes, fmt.Sprintf("status %d: not a 2xx answer", resp.StatusCode))
	}
	if ct := resp.Header.Get("Content-Type"); !jsonMediaType(ct) {
		notes = append(notes, fmt.Sprintf("Content-Type %.80q is not JSON", ct))
	}
	if _, err := judge.ParseJSON(body, judge.Limits{}); err != nil {
		notes = append(notes, fmt.Sprintf("not strict JSON: %v", err))
	}
	return strings.Join(notes, "; ")
}

// jsonMediaType reports whether the Content-Type value ct names JSON:
// application/json or a +json type.
func jsonMediaType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// joinNotes joins two notes, either of which may be "".
func joinNotes(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}
