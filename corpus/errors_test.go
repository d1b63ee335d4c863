package corpus_test

import (
	"encoding/json"
	"testing"

	"github.com/toolcert/toolcert/corpus"
)

// TestErrorFor: the entry naming a status answers it, else its range's,
// else the default; a status below 300 has none.
func TestErrorFor(t *testing.T) {
	tool := &corpus.Tool{Errors: []corpus.ErrorAnswer{
		{Status: "default", Body: json.RawMessage(`{"kind": "default", "message": "{{text}}"}`)},
		{Status: "4xx", Body: json.RawMessage(`{"kind": "4xx", "message": "{{text}}"}`)},
		{Status: "404", Page: "<p>{{text}}</p>"},
	}}
	for status, want := range map[int]string{404: "404", 410: "4xx", 503: "default", 302: "default", 201: "", 200: "", 600: ""} {
		e, ok := tool.ErrorFor(status)
		if got := map[bool]string{true: e.Status}[ok]; got != want {
			t.Errorf("ErrorFor(%d) = %q, want %q", status, got, want)
		}
	}
}

// TestErrorAnswerRender: the text is written inside each JSON string that
// holds the mark (escaped as JSON needs, "<" and "&" kept), and as it is
// in a page; "{{status}}" alone is the status as a number, within text
// its digits; the body is compacted, its member order kept.
func TestErrorAnswerRender(t *testing.T) {
	body := corpus.ErrorAnswer{Status: "4XX", Body: json.RawMessage("{\n  \"message\": \"{{text}}\",\n  \"errors\": [\"see: {{text}}\"],\n  \"code\": \"{{status}}\",\n  \"status\": \"HTTP {{status}}\"\n}")}
	if got, want := string(body.Render(404, `say "<hi>" & go`)), `{"message":"say \"<hi>\" & go","errors":["see: say \"<hi>\" & go"],"code":404,"status":"HTTP 404"}`; got != want {
		t.Errorf("Render = %s, want %s", got, want)
	}
	if got := body.MediaType(); got != "application/json" {
		t.Errorf("MediaType = %q", got)
	}
	page := corpus.ErrorAnswer{Status: "502", Page: "<p>{{status}}: {{text}}</p>"}
	if got := string(page.Render(502, "down")); got != "<p>502: down</p>" || page.MediaType() != "text/html; charset=utf-8" {
		t.Errorf("page renders %q as %q", got, page.MediaType())
	}
}
