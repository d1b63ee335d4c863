package judge

import (
	"errors"
	"fmt"
	"time"

	"github.com/toolcert/toolcert/protocol"
)

// ParseTimestamp reads s as an RFC 3339 date-time (section 5.6) and
// returns the instant it names, in UTC for "Z" and in a fixed zone for a
// numeric offset. Any other text is a *Rejection at gate semantic, reason
// bad_timestamp.
//
// As docs/protocol.md ("Timestamps") reads RFC 3339: "T" and "Z" may be
// lower case; every field has exactly its two (or four) digits; a fraction
// follows a '.' and has any number of digits (nanoseconds past the ninth
// are dropped); offsets run to ±23:59; a second of 60 is a leap second,
// valid where the time is 23:59 in UTC, and names the first instant of
// the next minute. A space for "T" is not RFC 3339's grammar. Years are
// 0000 to 9999.
func ParseTimestamp(s string) (time.Time, error) {
	st, err := readStamp(s)
	if err != nil {
		return time.Time{}, Reject(protocol.GateSemantic, protocol.ReasonBadTimestamp, "timestamp %.80q: %w", s, err)
	}
	return st.instant(), nil
}

// Fresh checks that observed, an RFC 3339 date-time, is neither older than
// now-window (stale) nor later than now+skew (future); an instant exactly
// on either bound is fresh. It returns nil or a *Rejection at gate semantic
// with reason bad_timestamp, stale or future. Instants are compared, never
// durations, so a year-9999 timestamp does not overflow.
func Fresh(observed string, now time.Time, window, skew time.Duration) error {
	t, err := ParseTimestamp(observed)
	if err != nil {
		return err
	}
	if oldest := now.Add(-window); t.Compare(oldest) < 0 {
		return Reject(protocol.GateSemantic, protocol.ReasonStale, "observed at %s, %s before the check at %s: older than the freshness window of %s allows",
			observed, now.Sub(t).Round(time.Millisecond), now.UTC().Format(time.RFC3339), window)
	}
	if latest := now.Add(skew); t.Compare(latest) > 0 {
		return Reject(protocol.GateSemantic, protocol.ReasonFuture, "observed at %s, %s after the check at %s: later than the future skew of %s allows",
			observed, t.Sub(now).Round(time.Millisecond), now.UTC().Format(time.RFC3339), skew)
	}
	return nil
}

// stamp is a date-time as written.
type stamp struct {
	year, month, day     int
	hour, minute, second int
	nanos                int
	utc                  bool // "Z"
	offset               int  // seconds east of UTC, when not utc
}

// instant returns the time st names.
func (st stamp) instant() time.Time {
	loc := time.UTC
	if !st.utc {
		loc = time.FixedZone("", st.offset)
	}
	return time.Date(st.year, time.Month(st.month), st.day, st.hour, st.minute, st.second, st.nanos, loc)
}

// errStamp is the detail of a text that is not a date-time.
var errStamp = errors.New("not an RFC 3339 date-time")

// readStamp reads date "T" time fraction zone, and nothing after.
func readStamp(s string) (stamp, error) {
	c := &cursor{s: s}
	var st stamp
	if err := c.date(&st); err != nil {
		return stamp{}, err
	}
	if err := c.clock(&st); err != nil {
		return stamp{}, err
	}
	st.nanos = c.fraction()
	if err := c.zone(&st); err != nil {
		return stamp{}, err
	}
	if c.i != len(s) {
		return stamp{}, fmt.Errorf("%w: %q after the zone", errStamp, s[c.i:])
	}
	if st.second == 60 && !st.leapMinute() {
		return stamp{}, fmt.Errorf("%w: second 60 outside 23:59 UTC", errStamp)
	}
	return st, nil
}

// cursor reads a date-time left to right.
type cursor struct {
	s string
	i int
}

// date reads YYYY-MM-DD, the day checked against the month.
func (c *cursor) date(st *stamp) error {
	var ok bool
	st.year, ok = c.number(4, 4, 0, 9999)
	ok = ok && c.literal('-')
	if ok {
		st.month, ok = c.number(2, 2, 1, 12)
	}
	ok = ok && c.literal('-')
	if ok {
		st.day, ok = c.number(2, 2, 1, daysIn(st.month, st.year))
	}
	if !ok {
		return fmt.Errorf("%w: bad date", errStamp)
	}
	return nil
}

// leapMinute reports whether st's minute is 23:59 in UTC, the only minute
// a leap second can end.
func (st stamp) leapMinute() bool {
	offsetMinutes := 0
	if !st.utc {
		offsetMinutes = st.offset / 60
	}
	utc := ((st.hour*60+st.minute-offsetMinutes)%(24*60) + 24*60) % (24 * 60)
	return utc == 23*60+59
}

// clock reads THH:MM:SS, "T" or "t", the second up to 60.
func (c *cursor) clock(st *stamp) error {
	ok := c.literal('T') || c.literal('t')
	if ok {
		st.hour, ok = c.number(2, 2, 0, 23)
	}
	ok = ok && c.literal(':')
	if ok {
		st.minute, ok = c.number(2, 2, 0, 59)
	}
	ok = ok && c.literal(':')
	if ok {
		st.second, ok = c.number(2, 2, 0, 60)
	}
	if !ok {
		return fmt.Errorf("%w: bad time of day", errStamp)
	}
	return nil
}

// fraction reads an optional fraction of a second, '.' and one digit or
// more, and returns it in nanoseconds.
func (c *cursor) fraction() int {
	if c.i+1 >= len(c.s) || c.s[c.i] != '.' || !isDigit(c.s[c.i+1]) {
		return 0
	}
	c.i++
	nanos, scale := 0, 100_000_000
	for ; c.i < len(c.s) && isDigit(c.s[c.i]); c.i++ {
		nanos += int(c.s[c.i]-'0') * scale
		scale /= 10
	}
	return nanos
}

// zone reads "Z", "z" or ±HH:MM, hours up to 23 and minutes up to 59.
func (c *cursor) zone(st *stamp) error {
	if c.literal('Z') || c.literal('z') {
		st.utc = true
		return nil
	}
	sign := 0
	switch {
	case c.literal('+'):
		sign = 1
	case c.literal('-'):
		sign = -1
	default:
		return fmt.Errorf("%w: no zone", errStamp)
	}
	hours, ok := c.number(2, 2, 0, 23)
	ok = ok && c.literal(':')
	minutes := 0
	if ok {
		minutes, ok = c.number(2, 2, 0, 59)
	}
	if !ok {
		return fmt.Errorf("%w: bad zone offset", errStamp)
	}
	st.offset = sign * (hours*60 + minutes) * 60
	return nil
}

// number reads min to max digits (as many as there are, up to max) and
// returns their value when it lies in [lo, hi].
func (c *cursor) number(minDigits, maxDigits, lo, hi int) (int, bool) {
	v, n := 0, 0
	for n < maxDigits && c.i < len(c.s) && isDigit(c.s[c.i]) {
		v = v*10 + int(c.s[c.i]-'0')
		c.i++
		n++
	}
	return v, n >= minDigits && lo <= v && v <= hi
}

// literal reads the byte b.
func (c *cursor) literal(b byte) bool {
	if c.i < len(c.s) && c.s[c.i] == b {
		c.i++
		return true
	}
	return false
}

// daysIn returns the number of days of month in year (proleptic
// Gregorian), 0 for a month that does not exist.
func daysIn(month, year int) int {
	switch month {
	case 1, 3, 5, 7, 8, 10, 12:
		return 31
	case 4, 6, 9, 11:
		return 30
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	}
	return 0
}
