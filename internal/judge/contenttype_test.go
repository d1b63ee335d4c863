package judge_test

import (
	"net/http"
	"testing"

	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
)

func TestCheckContentType(t *testing.T) {
	const js = "application/json"
	tests := []struct {
		name   string
		values []string
		want   string
		ok     bool
		why    string
	}{
		{"plain", []string{js}, js, true, "the tool's media type"},
		{"case", []string{"Application/JSON; Charset=UTF-8"}, js, true, "media types and the charset compare without case"},
		{"quoted-charset", []string{`application/json; charset="utf-8"`}, js, true, "a quoted value is the same value"},
		{"trailing-semicolon", []string{"application/json;"}, js, true, "mirrors gate: a final ';' alone is allowed"},
		{"none", nil, js, false, "exactly one header"},
		{"two", []string{js, js}, js, false, "exactly one header, even when equal"},
		{"other-type", []string{"text/plain"}, js, false, "not the tool's type"},
		{"suffix-type", []string{"application/problem+json"}, js, false, "a related type is still another type"},
		{"latin1", []string{"application/json; charset=latin1"}, js, false, "only utf-8"},
		{"other-param", []string{"application/json; v=1"}, js, false, "charset is the only parameter"},
		{"malformed", []string{"application/json; charset"}, js, false, "a parameter needs a value"},
		{"list", []string{"application/json, text/plain"}, js, false, "one media type"},
		{"rfc2231-dropped", []string{"application/json; x*=junk"}, js, true, "mirrors gate: an undecodable starred parameter is dropped"},
		{"rfc2231-charset", []string{"application/json; charset*=utf-8''utf-8"}, js, true, "mirrors gate: RFC 2231 charset"},
	}
	for _, tt := range tests {
		h := http.Header{}
		for _, v := range tt.values {
			h.Add("Content-Type", v)
		}
		err := judge.CheckContentType(h, tt.want)
		if tt.ok {
			if err != nil {
				t.Errorf("%s: CheckContentType = %v, want nil (%s)", tt.name, err, tt.why)
			}
			continue
		}
		if r, isRejection := judge.AsRejection(err); !isRejection || r.Gate != protocol.GateParse || r.Reason != protocol.ReasonContentType {
			t.Errorf("%s: CheckContentType = %v, want parse content_type (%s)", tt.name, err, tt.why)
		}
	}
}
