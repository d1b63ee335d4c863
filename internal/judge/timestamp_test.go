package judge_test

import (
	"testing"
	"time"

	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
)

func TestParseTimestamp(t *testing.T) {
	tests := []struct {
		in   string
		want string // the instant in UTC; "" when rejected
		why  string
	}{
		{"2026-11-29T16:00:00Z", "2026-11-29T16:00:00Z", "the plain form"},
		{"2026-11-29T17:00:00.5+01:00", "2026-11-29T16:00:00.5Z", "offset and fraction"},
		{"2026-11-29T16:00:00.1234567899Z", "2026-11-29T16:00:00.123456789Z", "past nanoseconds is dropped"},
		{"2026-11-29T16:00:00-00:00", "2026-11-29T16:00:00Z", "-00:00 is UTC"},
		{"0000-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "year 0000"},
		{"9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z", "year 9999"},
		{"2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z", "a leap day"},
		{"2026-11-29t16:00:00z", "2026-11-29T16:00:00Z", "RFC 3339 5.6: lower-case t and z"},
		{"2016-12-31T23:59:60Z", "2017-01-01T00:00:00Z", "a leap second: the first instant of the next minute"},
		{"2016-12-31T18:59:60-05:00", "2017-01-01T00:00:00Z", "a leap second at 23:59 UTC through an offset"},
		{"2026-11-29T16:00:60Z", "", "second 60 outside 23:59 UTC"},
		{"2026-11-29T23:59:60+01:00", "", "second 60 at 22:59 UTC"},
		{"2026-11-29T16:00:61Z", "", "no second 61"},
		{"2026-11-29T1:00:00Z", "", "a one-digit hour"},
		{"2026-11-29T16:00:00,5Z", "", "a comma before the fraction"},
		{"2026-11-29T16:00:00+24:00", "", "offset hour 24"},
		{"2026-11-29T16:00:00+23:60", "", "offset minute 60"},
		{"2026-11-29T16:00:00+23:59", "2026-11-28T16:01:00Z", "the largest offset"},
		{"2026-02-29T00:00:00Z", "", "2026 is no leap year"},
		{"2026-11-29 16:00:00Z", "", "a space for T is not the grammar"},
		{"2026-11-29T16:00Z", "", "seconds are required"},
		{"2026-11-29T16:00:00", "", "a zone is required"},
		{"2026-11-29T16:00:00+0100", "", "the offset has a colon"},
		{"2026-11-29T16:00:00.Z", "", "a fraction has a digit"},
		{"10000-01-01T00:00:00Z", "", "four-digit years"},
	}
	for _, tt := range tests {
		got, err := judge.ParseTimestamp(tt.in)
		if tt.want == "" {
			if r, ok := judge.AsRejection(err); !ok || r.Gate != protocol.GateSemantic || r.Reason != protocol.ReasonBadTimestamp {
				t.Errorf("ParseTimestamp(%q) = %v, %v; want semantic bad_timestamp (%s)", tt.in, got, err, tt.why)
			}
			continue
		}
		if err != nil || got.UTC().Format(time.RFC3339Nano) != tt.want {
			t.Errorf("ParseTimestamp(%q) = %v, %v; want %s (%s)", tt.in, got, err, tt.want, tt.why)
		}
	}
}

func TestFresh(t *testing.T) {
	now := time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC)
	tests := []struct {
		observed string
		want     string // reason; "" when fresh
		why      string
	}{
		{"2026-11-29T16:00:00Z", "", "now"},
		{"2026-11-29T15:55:00Z", "", "exactly the window: inclusive"},
		{"2026-11-29T15:54:59.999999999Z", protocol.ReasonStale, "one nanosecond older"},
		{"2026-11-29T16:00:30Z", "", "exactly the skew: inclusive"},
		{"2026-11-29T16:00:30.000000001Z", protocol.ReasonFuture, "one nanosecond later"},
		{"2026-11-29T17:00:30+01:00", "", "instants compare, not clock faces"},
		{"9999-12-31T23:59:59Z", protocol.ReasonFuture, "far future does not overflow"},
		{"0000-01-01T00:00:00Z", protocol.ReasonStale, "far past does not overflow"},
		{"soon", protocol.ReasonBadTimestamp, "not a date-time"},
	}
	for _, tt := range tests {
		err := judge.Fresh(tt.observed, now, 5*time.Minute, 30*time.Second)
		got := ""
		if r, ok := judge.AsRejection(err); ok {
			got = r.Reason
		} else if err != nil {
			got = "not a rejection: " + err.Error()
		}
		if got != tt.want {
			t.Errorf("Fresh(%s) = %v, want %q (%s)", tt.observed, err, tt.want, tt.why)
		}
	}
}
