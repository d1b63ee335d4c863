package gate

import (
	"errors"
	"regexp"
	"strconv"
	"time"

	"github.com/toolcert/toolcert/protocol"
)

// rfc3339 is the date-time grammar of RFC 3339 section 5.6, with "T" and
// "Z" in either case (its note: ABNF strings are case-insensitive). The
// groups are year, month, day, hour, minute, second, fraction, zone, and
// the offset's sign, hours and minutes.
var rfc3339 = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(([Zz])|([+-])(\d{2}):(\d{2}))$`)

// errNotRFC3339 is the detail of a timestamp outside RFC 3339.
var errNotRFC3339 = errors.New("not an RFC 3339 date-time")

// ParseTimestamp parses observed as an RFC 3339 date-time (section 5.6) as
// docs/protocol.md reads it: "t" and "z" may be lower case; a fraction
// follows a '.'; offsets run to ±23:59; a second of 60 is a leap second,
// valid where the time is 23:59 UTC, and names the first instant of the
// next minute. It returns a *Rejection{protocol.GateSemantic,
// "bad_timestamp"} when observed is not one.
func ParseTimestamp(observed string) (time.Time, error) {
	t, err := parseRFC3339(observed)
	if err != nil {
		return time.Time{}, Reject(protocol.GateSemantic, protocol.ReasonBadTimestamp, "timestamp %.80q: %w", observed, err)
	}
	return t, nil
}

// parseRFC3339 checks the grammar, then each field's range.
func parseRFC3339(s string) (time.Time, error) {
	m := rfc3339.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, errNotRFC3339
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	year, month, day, hour, minute, second := n(1), n(2), n(3), n(4), n(5), n(6)
	if month < 1 || month > 12 || day < 1 || day > daysInMonth(year, time.Month(month)) ||
		hour > 23 || minute > 59 || second > 60 {
		return time.Time{}, errNotRFC3339
	}
	loc := time.UTC
	if m[9] == "" { // a numeric offset
		oh, om := n(11), n(12)
		if oh > 23 || om > 59 {
			return time.Time{}, errNotRFC3339
		}
		east := (oh*60 + om) * 60
		if m[10] == "-" {
			east = -east
		}
		loc = time.FixedZone("", east)
	}
	nanos := 0
	if m[7] != "" {
		digits := (m[7][1:] + "000000000")[:9]
		nanos, _ = strconv.Atoi(digits)
	}
	t := time.Date(year, time.Month(month), day, hour, minute, min(second, 59), nanos, loc)
	if second == 60 {
		if u := t.UTC(); u.Hour() != 23 || u.Minute() != 59 {
			return time.Time{}, errNotRFC3339
		}
		t = time.Date(year, time.Month(month), day, hour, minute+1, 0, nanos, loc)
	}
	return t, nil
}

// daysInMonth is the number of days of month in year.
func daysInMonth(year int, month time.Month) int {
	return time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC).Day()
}
