package record

import (
	"net"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// formatSet is a set of string formats, one bit each.
type formatSet uint8

const (
	formatDateTime formatSet = 1 << iota
	formatDate
	formatUUID
	formatEmail
	formatURI

	allFormats = formatDateTime | formatDate | formatUUID | formatEmail | formatURI
)

// formatNames names the formats in the order one is chosen when several
// fit every value.
var formatNames = []struct {
	f    formatSet
	name string
	what string // what every value was
}{
	{formatDateTime, "date-time", "an RFC 3339 date-time"},
	{formatDate, "date", "an RFC 3339 full-date"},
	{formatUUID, "uuid", "a UUID in canonical form"},
	{formatEmail, "email", "an email address"},
	{formatURI, "uri", "an absolute URI with a host"},
}

var (
	dateTimePattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$`)
	datePattern     = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	uuidPattern     = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	emailLocal      = regexp.MustCompile("^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$")
	hostLabel       = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`)
	topLabel        = regexp.MustCompile(`^[A-Za-z]{2,63}$`)
)

// formatsOf returns the formats s has. Each check is stricter than the
// validator's, so a schema naming a format accepts every value it was
// inferred from.
func formatsOf(s string) formatSet {
	var f formatSet
	if isDateTime(s) {
		f |= formatDateTime
	}
	if isDate(s) {
		f |= formatDate
	}
	if uuidPattern.MatchString(s) {
		f |= formatUUID
	}
	if isEmail(s) {
		f |= formatEmail
	}
	if isURI(s) {
		f |= formatURI
	}
	return f
}

// isDateTime reports whether s is an RFC 3339 date-time, upper-case T
// and Z only.
func isDateTime(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil && dateTimePattern.MatchString(s)
}

// isDate reports whether s is an RFC 3339 full-date.
func isDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil && datePattern.MatchString(s)
}

// isEmail reports whether s is a plain address: a dot-atom local part
// and a host name with a top-level label.
func isEmail(s string) bool {
	local, domain, ok := strings.Cut(s, "@")
	if !ok || len(s) > 254 || len(local) > 64 || !emailLocal.MatchString(local) {
		return false
	}
	return isHostName(domain)
}

// isHostName reports whether s is a DNS name of two labels or more, the
// last one letters.
func isHostName(s string) bool {
	labels := strings.Split(s, ".")
	if len(s) > 253 || len(labels) < 2 || !topLabel.MatchString(labels[len(labels)-1]) {
		return false
	}
	for _, l := range labels {
		if !hostLabel.MatchString(l) {
			return false
		}
	}
	return true
}

// isURI reports whether s is printable ASCII and an absolute URI with a
// scheme and a host (an IPv6 host in brackets).
func isURI(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return false
		}
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || u.Host == "" || u.Opaque != "" {
		return false
	}
	if host := u.Hostname(); strings.Contains(host, ":") {
		return strings.HasPrefix(u.Host, "[") && net.ParseIP(host) != nil
	}
	return true
}

// name returns the format chosen for f and what every value was, or ""
// when f is empty.
func (f formatSet) name() (string, string) {
	for _, fn := range formatNames {
		if f&fn.f != 0 {
			return fn.name, fn.what
		}
	}
	return "", ""
}
