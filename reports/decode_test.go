package reports

import (
	"errors"
	"strings"
	"testing"
)

func TestDecodeStrict(t *testing.T) {
	type doc struct {
		A int `json:"a"`
	}
	tests := []struct {
		name, in string
		why      string
		tooLarge bool
		wantErr  bool
	}{
		{name: "one object", in: `{"a": 1}`, why: "the plain case"},
		{name: "trailing white space", in: "{\"a\": 1}\n\t ", why: "a file ends with a newline"},
		{name: "at the limit", in: `{"a":12345678}`, why: "exactly limit bytes is allowed"},
		{name: "past the limit", in: `{"a":123456789}`, why: "one byte more is refused, not cut", tooLarge: true, wantErr: true},
		{name: "unknown field", in: `{"b": 1}`, why: "a typo must not read as an empty value", wantErr: true},
		{name: "second object", in: `{"a": 1} {}`, why: "two documents are not one", wantErr: true},
		{name: "stray bracket", in: `{"a": 1} ]`, why: "a closing bracket after the object is data too", wantErr: true},
		{name: "empty", in: ``, why: "no object at all", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v doc
			err := decodeStrict(strings.NewReader(tt.in), 14, &v)
			if (err != nil) != tt.wantErr {
				t.Fatalf("decodeStrict(%q) = %v, want an error: %v (%s)", tt.in, err, tt.wantErr, tt.why)
			}
			var tl *tooLargeError
			if errors.As(err, &tl) != tt.tooLarge {
				t.Errorf("decodeStrict(%q) = %v, want too large: %v (%s)", tt.in, err, tt.tooLarge, tt.why)
			}
		})
	}
}
