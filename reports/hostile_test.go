package reports

import (
	"bytes"
	"encoding/json"
	"testing"
)

// hostile is adapter text the renderers must keep inert: an ANSI escape, a
// script and a byte that is not UTF-8.
const hostile = "\x1b[31m</script><script>alert(1)</script>\xff"

// hostileBack is hostile as it reads back from JSON: the invalid byte is
// U+FFFD.
const hostileBack = "\x1b[31m</script><script>alert(1)</script>\uFFFD"

// renderInertJSON renders r with render and checks that the output is
// valid JSON holding no hostile byte unescaped.
func renderInertJSON(t *testing.T, file string, render Renderer, r *Result) {
	t.Helper()
	var buf bytes.Buffer
	if err := render(&buf, r); err != nil {
		t.Fatal(err)
	}
	if !json.Valid(buf.Bytes()) {
		t.Fatalf("%s is not valid JSON:\n%s", file, buf.String())
	}
	for _, raw := range []string{"<script", "\x1b", "\xff"} {
		if bytes.Contains(buf.Bytes(), []byte(raw)) {
			t.Errorf("%s holds %q unescaped", file, raw)
		}
	}
}
