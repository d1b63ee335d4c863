package mocks_test

import (
	"errors"
	"testing"
	"time"

	"github.com/toolcert/toolcert/mocks"
)

func TestResponseValidate(t *testing.T) {
	body := []byte("0123456789")
	tests := []struct {
		name  string
		resp  mocks.Response
		valid bool
	}{
		{"zero value is a plain 200", mocks.Response{}, true},
		{"any bytes but CR LF in reason", mocks.Response{Reason: "\xff\x00\t"}, true},
		{"status must be three digits", mocks.Response{Status: 99}, false},
		{"status above 999 cannot be written", mocks.Response{Status: 1000}, false},
		{"LF in reason splits the head", mocks.Response{Reason: "a\nb"}, false},
		{"empty header name", mocks.Response{Header: []mocks.HeaderField{{"", "v"}}}, false},
		{"colon in header name", mocks.Response{Header: []mocks.HeaderField{{"a:b", "v"}}}, false},
		{"CR in header value", mocks.Response{Header: []mocks.HeaderField{{"A", "v\r"}}}, false},
		{"body and generate are exclusive", mocks.Response{Body: body, Generate: 10}, false},
		{"negative generate", mocks.Response{Generate: -1}, false},
		{"negative times", mocks.Response{Times: -1}, false},
		{"negative delay", mocks.Response{Fault: mocks.Fault{DelayHeaders: -time.Second}}, false},
		{"interval without chunk", mocks.Response{Body: body, Fault: mocks.Fault{DribbleEvery: time.Second}}, false},
		{"reset and empty together", mocks.Response{Fault: mocks.Fault{Reset: true, Empty: true}}, false},
		{"reset writes no body to truncate", mocks.Response{Body: body, Fault: mocks.Fault{Reset: true, TruncateAfter: 2}}, false},
		{"truncating past the end cuts nothing", mocks.Response{Body: body, Fault: mocks.Fault{TruncateAfter: 10}}, false},
		{"truncating a generated body", mocks.Response{Generate: 100, Fault: mocks.Fault{TruncateAfter: 99}}, true},
		{"delay before reset", mocks.Response{Fault: mocks.Fault{DelayHeaders: time.Second, Reset: true}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.resp.Validate()
			if tt.valid && err != nil || !tt.valid && !errors.Is(err, mocks.ErrInvalidResponse) {
				t.Errorf("Validate() = %v, want valid %v", err, tt.valid)
			}
		})
	}
}
