package variant

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/protocol"
)

// transportOperators change the status line or the Content-Type and keep
// the body. They are made once per tool, from its first example: the body
// does not matter to them.
func transportOperators() []operator {
	return []operator{
		{name: "upstream_5xx", describe: "status 503 with the example's body (once per tool): retryable UPSTREAM_UNAVAILABLE; where tool.json declares error answers, also #503 (when one covers it) and every 5xx they name, each in the upstream's own shape with advice and a canary as its text", json: upstream5xx, kv: upstream5xx},
		{name: "upstream_status", describe: "another status with an error body holding advice and a canary (once per tool), in the upstream's own shape where tool.json declares its error answers: #404, #429, #400, #403, and #201, #302 that no adapter may take for 200, and every other 3xx or 4xx the error answers name", json: upstreamStatus, kv: upstreamStatus},
		{name: "content_type", describe: "the example's body under another Content-Type (once per tool); #charset (charset=utf-8) is accepted", json: contentType, kv: contentType},
	}
}

// earlyBody returns the example's body with a canary, for variants
// refused before the body is parsed: the stored bytes when they hold one.
func earlyBody(x *example) []byte {
	if x.kv != nil {
		return x.markedEarlyKV("").encode()
	}
	if x.tree.hasCanary("") {
		return x.raw
	}
	return x.markedEarly("").encode()
}

// hiddenBody returns the example's body with a canary where an adapter
// that reads past what the answer breaks shows none (markedHidden), for
// ignorable variants of the whole answer: the stored bytes when they hold
// one. A key_value example's mark is on its first line (markedEarlyKV).
func hiddenBody(x *example) []byte {
	if x.kv != nil {
		return x.markedEarlyKV("").encode()
	}
	if x.tree.hasCanary("") {
		return x.raw
	}
	return x.markedHidden("").encode()
}

func upstream5xx(x *example) []draft {
	if !x.first {
		return nil
	}
	out := []draft{{note: "status 503 with the example's body", status: http.StatusServiceUnavailable, body: earlyBody(x), expect: statusExpect(http.StatusServiceUnavailable)}}
	for _, status := range declaredStatuses(x.tool, 5) {
		if d, ok := declaredError(x, status); ok {
			out = append(out, d)
		}
	}
	return out
}

// declaredStatuses are the statuses of class class (4 for 4xx) that tool
// t's error answers add to the generator's: for class 5, 503 where an
// entry covers it; every status of the class an entry names.
func declaredStatuses(t *corpus.Tool, class int) []int {
	var out []int
	if len(t.Errors) == 0 {
		return nil
	}
	if _, ok := t.ErrorFor(http.StatusServiceUnavailable); ok && class == 5 {
		out = append(out, http.StatusServiceUnavailable)
	}
	for _, e := range t.Errors {
		if n, err := strconv.Atoi(e.Status); err == nil && n/100 == class && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// declaredError is the draft of status served as the tool's error answer
// for it, tagged with the status; false when the tool declares none.
func declaredError(x *example, status int) (draft, bool) {
	e, ok := x.tool.ErrorFor(status)
	if !ok {
		return draft{}, false
	}
	ct := e.MediaType()
	return draft{
		tag: fmt.Sprint(status), status: status, expect: statusExpect(status), contentType: &ct,
		note: fmt.Sprintf("status %d with the upstream's own error answer (tool.json errors %q), its text advice and a canary", status, e.Status),
		body: e.Render(status, corpus.HostileErrorText),
	}, true
}

func upstreamStatus(x *example) []draft {
	if !x.first {
		return nil
	}
	var out []draft
	for _, status := range errorStatuses(x.tool) {
		if d, ok := declaredError(x, status); ok {
			out = append(out, d)
			continue
		}
		out = append(out, draft{
			tag: fmt.Sprint(status), note: fmt.Sprintf("status %d with an error body that gives advice", status),
			status: status, body: errorBody(x, status), expect: statusExpect(status),
		})
	}
	return out
}

// errorStatuses are the statuses upstream_status serves for tool t: 404,
// 429, 400, 403, and 201 and 302 that no adapter may take for 200; then
// every other status from 300 to 499 that t's error answers name (a 5xx
// is upstream_5xx's).
func errorStatuses(t *corpus.Tool) []int {
	out := []int{404, 429, 400, 403, 201, 302}
	for _, class := range []int{3, 4} {
		for _, n := range declaredStatuses(t, class) {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// errorBody returns toolcert's own upstream error page in the tool's
// format, for a tool that declares no error answer for status: a JSON
// error object, or an error line.
func errorBody(x *example, status int) []byte {
	if x.kv != nil {
		return fmt.Appendf(nil, "error=%d %s\n", status, corpus.HostileErrorText)
	}
	e := objNode("error", objNode("status", litNode(fmt.Sprint(status)), "message", strNode(corpus.HostileErrorText)))
	return e.encode()
}

// contentTypes are content_type's headers by tag, per body format; an
// empty header means the mock sends none.
var contentTypes = map[string][]struct{ tag, header string }{
	corpus.FormatJSON: {
		{"html", "text/html; charset=utf-8"}, {"text", "text/plain"}, {"none", ""},
		{"latin1", "application/json; charset=iso-8859-1"}, {"problem", "application/problem+json"},
		{"charset", "application/json; charset=utf-8"},
	},
	corpus.FormatKeyValue: {
		{"json", "application/json"}, {"html", "text/html; charset=utf-8"},
		{"latin1", "text/plain; charset=iso-8859-1"}, {"charset", "text/plain; charset=utf-8"},
	},
}

func contentType(x *example) []draft {
	if !x.first {
		return nil
	}
	var out []draft
	format := corpus.FormatJSON
	if x.kv != nil {
		format = corpus.FormatKeyValue
	}
	for _, c := range contentTypes[format] {
		d := draft{tag: c.tag, note: fmt.Sprintf("Content-Type %q", c.header), contentType: &c.header}
		if c.tag == "charset" {
			d.body, d.expect = x.raw, x.accepted()
		} else {
			d.body, d.expect = hiddenBody(x), parseFault(protocol.ReasonContentType)
		}
		out = append(out, d)
	}
	return out
}
