package gate

import (
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/toolcert/toolcert/protocol"
)

// Equal binds a field of the upstream answer to the request by its JSON
// value: it returns nil when got (a value of the parsed tree) is the string
// want, an integer whose literal is want's digits in their shortest form
// (1347 for "1347"; not 1347.0, 1.347e3, or "01347"), or the boolean want
// spells ("true", "false"); otherwise a *Rejection{protocol.GateSemantic,
// "binding_mismatch"} naming field.
func Equal(field string, got any, want string) error {
	if bindsTo(got, want) {
		return nil
	}
	return Reject(protocol.GateSemantic, protocol.ReasonBindingMismatch, "%s is %.80q, want %q", field, fmt.Sprint(got), want)
}

// bindsTo reports whether the parsed value got is the argument want.
func bindsTo(got any, want string) bool {
	switch v := got.(type) {
	case string:
		return v == want
	case json.Number:
		return string(v) == want && canonicalInteger.MatchString(want)
	case bool:
		return v && want == "true" || !v && want == "false"
	}
	return false
}

// canonicalInteger matches an integer in its shortest decimal form.
var canonicalInteger = regexp.MustCompile(`^(0|-?[1-9][0-9]*)$`)

// Fresh checks that observed, an RFC 3339 date-time, is at most window older
// than now and at most skew later than now (both bounds inclusive). It
// returns a *Rejection of gate semantic with reason "bad_timestamp",
// "stale" or "future".
func Fresh(observed string, now time.Time, window, skew time.Duration) error {
	t, err := ParseTimestamp(observed)
	if err != nil {
		return err
	}
	// Compare instants, not durations: a far date (year 9999) is more than
	// a time.Duration away from now, and now.Sub would saturate.
	switch {
	case t.Before(now.Add(-window)):
		return Reject(protocol.GateSemantic, protocol.ReasonStale, "observed at %s, before the window of %s", observed, window)
	case t.After(now.Add(skew)):
		return Reject(protocol.GateSemantic, protocol.ReasonFuture, "observed at %s, past the skew of %s", observed, skew)
	}
	return nil
}
