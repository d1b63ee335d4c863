package gate

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/protocol"
)

func TestCheckContentType(t *testing.T) {
	tests := []struct {
		name   string
		values []string
		want   string
		reason string
	}{
		{name: "json", values: []string{"application/json"}, want: protocol.ContentTypeJSON},
		{name: "json utf-8", values: []string{"application/json; charset=UTF-8"}, want: protocol.ContentTypeJSON},
		{name: "upper case", values: []string{"Application/JSON"}, want: protocol.ContentTypeJSON},
		{name: "text", values: []string{"text/plain; charset=utf-8"}, want: protocol.ContentTypeText},
		{name: "missing", want: protocol.ContentTypeJSON, reason: protocol.ReasonContentType},
		{name: "two headers", values: []string{"application/json", "application/json"}, want: protocol.ContentTypeJSON, reason: protocol.ReasonContentType},
		{name: "html", values: []string{"text/html"}, want: protocol.ContentTypeJSON, reason: protocol.ReasonContentType},
		{name: "problem json", values: []string{"application/problem+json"}, want: protocol.ContentTypeJSON, reason: protocol.ReasonContentType},
		{name: "other charset", values: []string{"application/json; charset=latin1"}, want: protocol.ContentTypeJSON, reason: protocol.ReasonContentType},
		{name: "other parameter", values: []string{"application/json; v=2"}, want: protocol.ContentTypeJSON, reason: protocol.ReasonContentType},
		{name: "garbage", values: []string{"json;;"}, want: protocol.ContentTypeJSON, reason: protocol.ReasonContentType},
		{name: "json for a text tool", values: []string{"application/json"}, want: protocol.ContentTypeText, reason: protocol.ReasonContentType},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for _, v := range tt.values {
				h.Add("Content-Type", v)
			}
			err := CheckContentType(h, tt.want)
			if diff := cmp.Diff(tt.reason, reasonOf(t, err, protocol.GateParse)); diff != "" {
				t.Errorf("reason (-want +got):\n%s\nerr: %v", diff, err)
			}
		})
	}
}
