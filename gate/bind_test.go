package gate

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/protocol"
)

func TestFresh(t *testing.T) {
	now := time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		observed string
		want     string
	}{
		{name: "now", observed: "2026-11-29T16:00:00Z"},
		{name: "window edge", observed: "2026-11-29T15:55:00Z"},
		{name: "one second stale", observed: "2026-11-29T15:54:59Z", want: protocol.ReasonStale},
		{name: "skew edge", observed: "2026-11-29T16:00:30Z"},
		{name: "past the skew", observed: "2026-11-29T16:00:31Z", want: protocol.ReasonFuture},
		{name: "offset zone", observed: "2026-11-29T17:00:00+01:00"},
		{name: "fraction", observed: "2026-11-29T15:59:59.999999Z"},
		{name: "year 9999 is past any Duration", observed: "9999-12-31T23:59:59Z", want: protocol.ReasonFuture},
		{name: "year 0001 is past any Duration", observed: "0001-01-01T00:00:00Z", want: protocol.ReasonStale},
		{name: "not a timestamp", observed: "yesterday", want: protocol.ReasonBadTimestamp},
		{name: "no zone", observed: "2026-11-29T16:00:00", want: protocol.ReasonBadTimestamp},
		{name: "empty", observed: "", want: protocol.ReasonBadTimestamp},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Fresh(tt.observed, now, 5*time.Minute, 30*time.Second)
			if diff := cmp.Diff(tt.want, reasonOf(t, err, protocol.GateSemantic)); diff != "" {
				t.Errorf("reason (-want +got):\n%s\nerr: %v", diff, err)
			}
		})
	}
}

func TestEqual(t *testing.T) {
	tests := []struct {
		name string
		got  any
		want string
	}{
		{name: "equal", got: "CR-1", want: ""},
		{name: "other id", got: "CR-2", want: protocol.ReasonBindingMismatch},
		{name: "case differs", got: "cr-1", want: protocol.ReasonBindingMismatch},
		{name: "not a string", got: 1, want: protocol.ReasonBindingMismatch},
		{name: "absent", got: nil, want: protocol.ReasonBindingMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Equal("change_id", tt.got, "CR-1")
			if diff := cmp.Diff(tt.want, reasonOf(t, err, protocol.GateSemantic)); diff != "" {
				t.Errorf("reason (-want +got):\n%s", diff)
			}
		})
	}
}
