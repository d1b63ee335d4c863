package gate

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/protocol"
)

func TestParseJSON(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	tests := []struct {
		name   string
		raw    string
		want   any
		reason string
		// deep compares with reflect.DeepEqual: cmp.Diff is exponential
		// on deeply nested slices.
		deep bool
	}{
		{name: "object", raw: `{"a":1,"b":[true,false,null],"c":"x\u00e9"}`,
			want: map[string]any{"a": json.Number("1"), "b": []any{true, false, nil}, "c": "xé"}},
		{name: "scalar document", raw: ` "x" `, want: "x"},
		{name: "empty array and object", raw: `[{},[]]`, want: []any{map[string]any{}, []any{}}},
		{name: "big exact number kept as text", raw: `12345678901234567890`, want: json.Number("12345678901234567890")},
		{name: "surrogate pair", raw: `"\ud83d\ude00"`, want: "😀"},
		{name: "depth at the limit", raw: deep(32), want: nest(32), deep: true},
		{name: "bom", raw: "\xef\xbb\xbf{}", reason: protocol.ReasonBOM},
		{name: "invalid utf8 in value", raw: "{\"a\":\"ab\xff\"}", reason: protocol.ReasonInvalidUTF8},
		{name: "invalid utf8 in name", raw: "{\"\xc3\":1}", reason: protocol.ReasonInvalidUTF8},
		{name: "invalid utf8 outside string", raw: "[1,\xff]", reason: protocol.ReasonInvalidUTF8},
		{name: "lone high surrogate", raw: `{"a":"\ud800"}`, reason: protocol.ReasonInvalidSurrogate},
		{name: "lone low surrogate", raw: `{"a":"x\uDC00"}`, reason: protocol.ReasonInvalidSurrogate},
		{name: "unpaired high surrogate", raw: `["\ud800\u0041"]`, reason: protocol.ReasonInvalidSurrogate},
		{name: "duplicate name", raw: `{"a":1,"a":2}`, reason: protocol.ReasonDuplicateName},
		{name: "escaped duplicate name", raw: `{"a":1,"\u0061":2}`, reason: protocol.ReasonDuplicateName},
		{name: "nested duplicate name", raw: `{"x":{"b":1,"b":1}}`, reason: protocol.ReasonDuplicateName},
		{name: "NaN", raw: `{"a":NaN}`, reason: protocol.ReasonNonfinite},
		{name: "Infinity", raw: `[Infinity]`, reason: protocol.ReasonNonfinite},
		{name: "minus Infinity", raw: `[-Infinity]`, reason: protocol.ReasonNonfinite},
		{name: "overflowing number", raw: `[1e999]`, reason: protocol.ReasonNonfinite},
		{name: "truncated object", raw: `{"a":`, reason: protocol.ReasonTruncated},
		{name: "truncated string", raw: `"abc`, reason: protocol.ReasonTruncated},
		{name: "truncated literal", raw: `[tru`, reason: protocol.ReasonTruncated},
		{name: "empty", raw: ``, reason: protocol.ReasonTruncated},
		{name: "white space only", raw: " \n", reason: protocol.ReasonTruncated},
		{name: "second document", raw: `{}{}`, reason: protocol.ReasonTrailingData},
		{name: "trailing garbage", raw: `{"a":1} x`, reason: protocol.ReasonTrailingData},
		{name: "trailing comma", raw: `[1,]`, reason: protocol.ReasonSyntax},
		{name: "missing comma", raw: `{"a":1 "b":2}`, reason: protocol.ReasonSyntax},
		{name: "single quotes", raw: `{'a':1}`, reason: protocol.ReasonSyntax},
		{name: "leading zero", raw: `[01]`, reason: protocol.ReasonSyntax},
		{name: "comment", raw: `{} // no`, reason: protocol.ReasonTrailingData},
		{name: "depth over the limit", raw: deep(33), reason: protocol.ReasonDepthLimit},
		{name: "deep object over the limit", raw: strings.Repeat(`{"a":`, 33) + "1" + strings.Repeat("}", 33), reason: protocol.ReasonDepthLimit},
		{name: "deep and truncated", raw: strings.Repeat("[", 40), reason: protocol.ReasonDepthLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseJSON([]byte(tt.raw), Limits{})
			if diff := cmp.Diff(tt.reason, reasonOf(t, err, protocol.GateParse)); diff != "" {
				t.Fatalf("reason (-want +got):\n%s\nerr: %v", diff, err)
			}
			switch {
			case tt.reason != "":
			case tt.deep:
				if !reflect.DeepEqual(tt.want, got) {
					t.Errorf("value = %v, want %v", got, tt.want)
				}
			default:
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("value (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestParseJSONDepthLimitOption(t *testing.T) {
	if _, err := ParseJSON([]byte(`[[1]]`), Limits{MaxDepth: 1}); reasonOf(t, err, protocol.GateParse) != protocol.ReasonDepthLimit {
		t.Errorf("depth 2 with MaxDepth 1: err = %v, want depth_limit", err)
	}
	if _, err := ParseJSON([]byte(`[1]`), Limits{MaxDepth: 1}); err != nil {
		t.Errorf("depth 1 with MaxDepth 1: err = %v, want nil", err)
	}
}

// nest returns n nested empty arrays.
func nest(n int) any {
	var v any = []any{}
	for i := 1; i < n; i++ {
		v = []any{v}
	}
	return v
}

// reasonOf returns the reason of err, "" for nil; it fails the test when err
// is not a *Rejection of gate.
func reasonOf(tb testing.TB, err error, gate protocol.Gate) string {
	tb.Helper()
	if err == nil {
		return ""
	}
	r, ok := AsRejection(err)
	if !ok {
		tb.Fatalf("error %v (%T) is not a *Rejection", err, err)
	}
	if r.Gate != gate {
		tb.Fatalf("gate = %q, want %q (err %v)", r.Gate, gate, err)
	}
	return r.Reason
}
