package reports

import (
	"strings"
	"testing"
)

// TestProgressSaysWhatFailed: the progress line of a failure whose error
// spans lines shows the line that says what failed, not a heading, and
// counts the lines left for results.json.
func TestProgressSaysWhatFailed(t *testing.T) {
	tests := []struct {
		name, reason, err, want string
	}{
		{"one line", "the whole error",
			"the agent saw another outcome", "the agent saw another outcome"},
		{"a start failure", "its first line says what failed; the adapter's output is counted",
			"start lane 1: start process ./adapter: target process exited (exit status 2); it printed: panic: boom\nits output began:\nstarting\nlast output:\npanic: boom\n\ngoroutine 1 [running]:\n",
			"start lane 1: start process ./adapter: target process exited (exit status 2); it printed: panic: boom (5 more lines in results.json)"},
		{"a heading first", "a line that only introduces the next is joined to it",
			"\n  the target failed:\n    listen tcp: address already in use\n  last output:\n  x\n",
			"the target failed: listen tcp: address already in use (2 more lines in results.json)"},
		{"one more line", "said in the singular",
			"calling \"x\" on the target failed\nthe target is not alive", "calling \"x\" on the target failed (1 more line in results.json)"},
		{"blank lines", "are not counted",
			"what failed\n\n\n", "what failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			Progress(&b, Scenario{Feature: "target", Name: "the target starts", Status: Failed, Error: tt.err})
			want := "FAIL target: the target starts (0ms)\n     " + tt.want + "\n"
			if got := b.String(); got != want {
				t.Errorf("Progress (%s):\n%q\nwant:\n%q", tt.reason, got, want)
			}
		})
	}
}
