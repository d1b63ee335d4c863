package gate

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/protocol"
)

func TestParseKeyValues(t *testing.T) {
	keys := []KeySpec{
		{Name: "host", Pattern: regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{0,62}$`)},
		{Name: "uptime_seconds", Pattern: regexp.MustCompile(`^[0-9]{1,12}$`)},
	}
	tests := []struct {
		name    string
		raw     string
		want    map[string]string
		wantErr bool
	}{
		{name: "exact", raw: "host=web-1\nuptime_seconds=86400\n",
			want: map[string]string{"host": "web-1", "uptime_seconds": "86400"}},
		{name: "banner line", raw: "Welcome!\nhost=web-1\nuptime_seconds=1\n", wantErr: true},
		{name: "warning after", raw: "host=web-1\nuptime_seconds=1\nwarning: x\n", wantErr: true},
		{name: "blank line", raw: "host=web-1\n\nuptime_seconds=1\n", wantErr: true},
		{name: "trailing blank line", raw: "host=web-1\nuptime_seconds=1\n\n", wantErr: true},
		{name: "carriage return", raw: "host=web-1\r\nuptime_seconds=1\r\n", wantErr: true},
		{name: "no final newline", raw: "host=web-1\nuptime_seconds=1", wantErr: true},
		{name: "reordered", raw: "uptime_seconds=1\nhost=web-1\n", wantErr: true},
		{name: "repeated key", raw: "host=web-1\nhost=web-1\n", wantErr: true},
		{name: "extra key", raw: "host=web-1\nuptime_seconds=1\nload=2\n", wantErr: true},
		{name: "missing key", raw: "host=web-1\n", wantErr: true},
		{name: "value off pattern", raw: "host=web-1\nuptime_seconds=12x\n", wantErr: true},
		{name: "thirteen digits", raw: "host=web-1\nuptime_seconds=1234567890123\n", wantErr: true},
		{name: "space around equals", raw: "host = web-1\nuptime_seconds=1\n", wantErr: true},
		{name: "no equals", raw: "host\nuptime_seconds=1\n", wantErr: true},
		{name: "invalid utf8", raw: "host=web\xff\nuptime_seconds=1\n", wantErr: true},
		{name: "bom", raw: "\xef\xbb\xbfhost=web-1\nuptime_seconds=1\n", wantErr: true},
		{name: "empty", raw: "", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseKeyValues([]byte(tt.raw), keys)
			wantReason := ""
			if tt.wantErr {
				wantReason = protocol.ReasonTextFormat
			}
			if diff := cmp.Diff(wantReason, reasonOf(t, err, protocol.GateParse)); diff != "" {
				t.Fatalf("reason (-want +got):\n%s\nerr: %v", diff, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseKeyValuesNilPatternRefusesControls(t *testing.T) {
	keys := []KeySpec{{Name: "a"}}
	if _, err := ParseKeyValues([]byte("a=x\x1b[31m\n"), keys); reasonOf(t, err, protocol.GateParse) != protocol.ReasonTextFormat {
		t.Errorf("escape sequence in value: err = %v, want text_format", err)
	}
	if _, err := ParseKeyValues([]byte("a=any value\n"), keys); err != nil {
		t.Errorf("plain value: err = %v", err)
	}
}
