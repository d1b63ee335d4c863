package judge_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
)

// halfway is 2^1024 - 2^970, half way between math.MaxFloat64 and 2^1024.
const halfway = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792"

func TestParseJSONRejects(t *testing.T) {
	tests := []struct {
		name, in string
		depth    int
		want     string
		why      string
	}{
		{"bom", "\ufeff{}", 0, protocol.ReasonBOM, "a byte order mark is refused before anything else"},
		{"invalid-utf8", "\"\xff\"", 0, protocol.ReasonInvalidUTF8, "0xFF is never UTF-8"},
		{"overlong", "\"\xc0\xaf\"", 0, protocol.ReasonInvalidUTF8, "an overlong '/' is not UTF-8"},
		{"surrogate-bytes", "\"\xed\xa0\x80\"", 0, protocol.ReasonInvalidUTF8, "an encoded surrogate is not UTF-8"},
		{"lone-high", `"\uD800"`, 0, protocol.ReasonInvalidSurrogate, "a high surrogate needs its low half"},
		{"lone-low", `"\uDC00"`, 0, protocol.ReasonInvalidSurrogate, "a low surrogate cannot come first"},
		{"reversed", `"\uDC00\uD800"`, 0, protocol.ReasonInvalidSurrogate, "halves in the wrong order"},
		{"duplicate", `{"a":1,"a":2}`, 0, protocol.ReasonDuplicateName, "the same name twice"},
		{"duplicate-escaped", `{"a":1,"\u0061":2}`, 0, protocol.ReasonDuplicateName, "names compare unescaped"},
		{"nan", "[NaN]", 0, protocol.ReasonNonfinite, "NaN is not JSON and not finite"},
		{"minus-infinity", "-Infinity", 0, protocol.ReasonNonfinite, "Infinity with a sign"},
		{"overflow", "1e400", 0, protocol.ReasonNonfinite, "beyond float64"},
		{"overflow-halfway", "1." + halfway[1:] + "e308", 0, protocol.ReasonNonfinite, "half way to 2^1024 rounds to infinity (to even)"},
		{"empty", "", 0, protocol.ReasonTruncated, "an empty body ends before any value"},
		{"spaces", " \n", 0, protocol.ReasonTruncated, "white space only"},
		{"cut-object", `{"a":`, 0, protocol.ReasonTruncated, "ends inside an object"},
		{"cut-number", "-", 0, protocol.ReasonTruncated, "a lone minus may still become a number"},
		{"cut-utf8", "\"\xe2\x82", 0, protocol.ReasonTruncated, "a sequence cut by the end of input"},
		{"second-value", "{} {}", 0, protocol.ReasonTrailingData, "one document only"},
		{"trailing-nul", "1\x00", 0, protocol.ReasonTrailingData, "NUL after the value"},
		{"too-deep", strings.Repeat("[", 33) + strings.Repeat("]", 33), 0, protocol.ReasonDepthLimit, "33 levels past the default 32"},
		{"too-deep-cut", strings.Repeat("[", 4), 3, protocol.ReasonDepthLimit, "depth is checked while reading, before the end"},
		{"trailing-comma", "[1,]", 0, protocol.ReasonSyntax, "no trailing comma"},
		{"single-quotes", "['a']", 0, protocol.ReasonSyntax, "strings take double quotes"},
		{"leading-zero", "[01]", 0, protocol.ReasonSyntax, "no leading zero"},
		{"raw-control", "\"\x01\"", 0, protocol.ReasonSyntax, "control characters must be escaped"},
		{"form-feed", "\f[]", 0, protocol.ReasonSyntax, "form feed is not JSON white space"},
		{"first-fault-wins", `{"a":NaN,"a":1}`, 0, protocol.ReasonNonfinite, "NaN comes before the duplicate"},
		{"decoder-cap", strings.Repeat("[", 10_001) + strings.Repeat("]", 10_001), 20_000, protocol.ReasonSyntax, "mirrors gate's 10000-level decoder cap"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := judge.ParseJSON([]byte(tt.in), judge.Limits{MaxDepth: tt.depth})
			r, ok := judge.AsRejection(err)
			if !ok {
				t.Fatalf("ParseJSON = %v, %v; want rejection %s (%s)", v, err, tt.want, tt.why)
			}
			if r.Gate != protocol.GateParse || r.Reason != tt.want {
				t.Errorf("ParseJSON rejects with %s %s, want parse %s (%s): %v", r.Gate, r.Reason, tt.want, tt.why, r)
			}
		})
	}
}

func TestParseJSONAccepts(t *testing.T) {
	tests := []struct {
		name, in string
		depth    int
		want     any
		why      string
	}{
		{"literals", "[true,false,null]", 0, []any{true, false, nil}, "every literal"},
		{"number-literal-kept", "[-0, 1E+5, 0.10]", 0, []any{json.Number("-0"), json.Number("1E+5"), json.Number("0.10")}, "numbers keep their text"},
		{"underflow", "1e-400", 0, json.Number("1e-400"), "too small reads as zero, not refused"},
		{"max-float", "1.7976931348623157e308", 0, json.Number("1.7976931348623157e308"), "the largest float64"},
		{"escapes", `"\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"`, 0, "\"\\/\b\f\n\r\té😀", "every escape, a pair"},
		{"del", "\"\x7f\"", 0, "\x7f", "DEL need not be escaped"},
		{"siblings", `[{"a":1},{"a":2}]`, 0, []any{map[string]any{"a": json.Number("1")}, map[string]any{"a": json.Number("2")}}, "each object has its own names"},
		{"empty-containers", `{"a":[],"b":{}}`, 0, map[string]any{"a": []any{}, "b": map[string]any{}}, "empty, not nil"},
		{"at-depth", strings.Repeat("[", 3) + strings.Repeat("]", 3), 3, []any{[]any{[]any{}}}, "exactly MaxDepth deep"},
		{"space", " \t\r\n\"x\" \t\r\n", 0, "x", "the four white space bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := judge.ParseJSON([]byte(tt.in), judge.Limits{MaxDepth: tt.depth})
			if err != nil {
				t.Fatalf("ParseJSON: %v (%s)", err, tt.why)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseJSON (-want +got) (%s):\n%s", tt.why, diff)
			}
		})
	}
}
