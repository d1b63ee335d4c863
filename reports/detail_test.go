package reports

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// detailSample is a run with one failed generated case that keeps what
// the agent saw (a hostile body longer than any format shows, a header),
// its upstream requests and what the target printed meanwhile.
func detailSample() *Result {
	body := `{"error":"` + hostile + `"}` + strings.Repeat("x", 8<<10)
	r := &Result{Tool: "toolcert", Version: "test", Seed: 7, Target: "t", StartedAt: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC),
		Scenarios: []Scenario{{ID: "features/v.feature:every variant", Feature: "features/v.feature", Name: "every variant", Status: Failed,
			Error: "1 of 1 generated variants failed",
			Cases: []Case{{ID: "review_status/approved/nan/decision", Tool: "review_status", Operator: "nan", Status: Failed,
				Reproducer: "toolcert run --case review_status/approved/nan/decision --seed 7",
				Evidence:   []Evidence{{Kind: EvidenceMismatch, Message: "expected the failure INVALID_RESPONSE, not retryable; the agent saw success"}},
				Saw: []Part{{Where: "status line", Text: "HTTP/1.1 200 OK"}, {Where: "header Date", Text: "Date: x"},
					{Where: "body", Text: body, Clipped: 100}},
				Requests: []Request{{Method: "GET", Path: "/reviews/CR-1042", Status: 503, Route: "GET /reviews/CR-1042", AfterMS: 8},
					{Method: "GET", Path: "/api", Status: 501, AfterMS: 9}, {Method: "GET", Path: "/apis", Status: 200, Route: "side GET /apis", AfterMS: 10}},
				TargetOutput: "started\nfetch review: " + hostile + "\nretrying in 1s\ngave up after 3 attempts\n"}}}},
	}
	r.Tally()
	return r
}

// TestFailedCaseDetail: the console, report.md, junit.xml and report.html
// show, for a failed case, what the agent saw (escaped, clipped, the
// headers counted), its upstream requests with their statuses and times,
// and the end of what the target printed, none of it as raw hostile text.
func TestFailedCaseDetail(t *testing.T) {
	r := detailSample()
	renders := map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return Text(b, r, TextOptions{}) },
		"markdown": func(b *bytes.Buffer) error { return Markdown(b, r) },
		"junit":    func(b *bytes.Buffer) error { return JUnit(b, r) },
		"html":     func(b *bytes.Buffer) error { return HTML(b, r) },
	}
	for name, render := range renders {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := render(&b); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, want := range []string{
				"the agent saw: body: ", `\x1b[31m`, "more bytes)", "and 1 headers",
				"GET /reviews/CR-1042 → 503 at 8ms", "GET /api → 501 (nobody programmed it) at 9ms", "(a side route)",
				"gave up after 3 attempts",
			} {
				if !strings.Contains(out, want) && !strings.Contains(out, htmlEscaped(want)) {
					t.Errorf("%s does not show %q", name, want)
				}
			}
			for _, raw := range []string{"\x1b", "\xff", "<script>alert"} {
				if strings.Contains(out, raw) && (raw != "<script>alert" || name == "html" || name == "junit") { // a terminal and a Markdown fence show markup as text
					t.Errorf("%s holds %q raw", name, raw)
				}
			}
			if strings.Contains(out, strings.Repeat("x", 4097)) {
				t.Errorf("%s shows more than 4 KiB of the body", name)
			}
		})
	}
}

// htmlEscaped is s as html/template and encoding/xml write text.
func htmlEscaped(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}
