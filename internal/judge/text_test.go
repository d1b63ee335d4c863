package judge_test

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
)

func TestParseKeyValues(t *testing.T) {
	keys := []judge.KeySpec{
		{Name: "host", Pattern: regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{0,62}$`)},
		{Name: "uptime_seconds", Pattern: regexp.MustCompile(`^[0-9]{1,12}$`)},
		{Name: "note"},
	}
	tests := []struct {
		name, raw string
		want      map[string]string // nil: rejected
		why       string
	}{
		{"ok", "host=web-1\nuptime_seconds=42\nnote=any = text\n", map[string]string{"host": "web-1", "uptime_seconds": "42", "note": "any = text"}, "the lines in order"},
		{"empty-free-value", "host=a\nuptime_seconds=1\nnote=\n", map[string]string{"host": "a", "uptime_seconds": "1", "note": ""}, "a nil pattern accepts an empty value"},
		{"bom", "\ufeffhost=a\nuptime_seconds=1\nnote=\n", nil, "no byte order mark"},
		{"invalid-utf8", "host=a\nuptime_seconds=1\nnote=\xff\n", nil, "UTF-8 only"},
		{"crlf", "host=a\r\nuptime_seconds=1\r\nnote=\r\n", nil, "no carriage return"},
		{"no-final-newline", "host=a\nuptime_seconds=1\nnote=", nil, "every line ends in a newline"},
		{"blank", "host=a\n\nuptime_seconds=1\nnote=\n", nil, "no blank line"},
		{"extra", "host=a\nuptime_seconds=1\nnote=\nmore=1\n", nil, "no extra line"},
		{"missing", "host=a\nuptime_seconds=1\n", nil, "every key"},
		{"reordered", "uptime_seconds=1\nhost=a\nnote=\n", nil, "in order"},
		{"repeated", "host=a\nhost=a\nnote=\n", nil, "each key once"},
		{"pattern", "host=A\nuptime_seconds=1\nnote=\n", nil, "the value matches its pattern"},
		{"tab", "host=a\nuptime_seconds=1\nnote=a\tb\n", nil, "no C0 control"},
		{"del", "host=a\nuptime_seconds=1\nnote=a\x7fb\n", nil, "no DEL"},
		{"c1", "host=a\nuptime_seconds=1\nnote=a\u0085b\n", nil, "no C1 control"},
		{"spaced-key", "host =a\nuptime_seconds=1\nnote=\n", nil, "the key is exact"},
	}
	for _, tt := range tests {
		got, err := judge.ParseKeyValues([]byte(tt.raw), keys)
		if tt.want == nil {
			if r, ok := judge.AsRejection(err); !ok || r.Gate != protocol.GateParse || r.Reason != protocol.ReasonTextFormat {
				t.Errorf("%s: ParseKeyValues = %v, %v; want parse text_format (%s)", tt.name, got, err, tt.why)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: ParseKeyValues: %v (%s)", tt.name, err, tt.why)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (%s) (-want +got):\n%s", tt.name, tt.why, diff)
		}
	}
}
