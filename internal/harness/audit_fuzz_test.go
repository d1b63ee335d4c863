package harness

import (
	"encoding/json"
	"testing"
)

// FuzzTopLevelStrings proves the audit line walker reads request_id and
// time as encoding/json does (minus its case-insensitive names): of any
// valid JSON object, the last member of each name, "" when it is no string.
func FuzzTopLevelStrings(f *testing.F) {
	for _, s := range []string{`{"request_id":"a","time":"2026-01-01T00:00:00Z"}`, `{"x":{"request_id":"no"},"request_id":"yes"}`, `{"request_id":1}`, `{"request_id":"a","request_id":"b"}`, `{"a":[1,{"b":"}"}],"time":"t\"x","request_id":"\u0041"}`, `{ "request_id" : "s p" , "z":null}`, `{"request_id":"a","request_id":2}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		if !json.Valid(b) || len(b) == 0 || b[0] != '{' {
			return
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) != nil {
			return
		}
		want := func(k string) string {
			var v string
			if json.Unmarshal(m[k], &v) != nil {
				return ""
			}
			return v
		}
		id, ts := topLevelStrings(b, "request_id", "time")
		if id != want("request_id") || ts != want("time") {
			t.Fatalf("%s: got %q %q want %q %q", s, id, ts, want("request_id"), want("time"))
		}
	})
}
