package browsertest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRecordQuiet(t *testing.T) {
	const page = "file:///tmp/report.html"
	for _, tc := range []struct {
		name, reason string
		r            Record
		want         []string
	}{
		{"loaded only", "the page's own request is all a quiet page makes",
			Record{Requests: []string{page}}, nil},
		{"nothing seen", "a record without the page's request saw nothing, which proves nothing",
			Record{}, []string{"no request for the page itself: the recorder saw nothing"}},
		{"everything", "every other event is reported, one line each",
			Record{
				Requests: []string{page, "http://127.0.0.1:1/img"}, Dialogs: []string{"alert: 1"},
				Console: []string{"log: x"}, Exceptions: []string{"Uncaught"}, Log: []string{"security error: blocked"},
				Violations: []string{"img-src http://127.0.0.1:1/img"}, Canary: []string{"script"},
			},
			[]string{"request: http://127.0.0.1:1/img", "dialog: alert: 1", "console: log: x", "exception: Uncaught",
				"log: security error: blocked", "csp violation: img-src http://127.0.0.1:1/img", "canary: script"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.r.Quiet(page)); diff != "" {
				t.Errorf("Quiet (-want +got), %s:\n%s", tc.reason, diff)
			}
		})
	}
}
