package record

import (
	"net/http"
	"regexp"
	"strings"
)

var (
	// versionHeader matches the names of the headers an upstream names
	// its version in.
	versionHeader = regexp.MustCompile(`(?i)^(x-)?(api-)?version$|^x-.*-version$|^x-api-version$`)
	// secretName matches header names that may carry a secret.
	secretName = regexp.MustCompile(`(?i)token|secret|key|auth|session|signature|password|cookie|credential`)
	// versionValue matches what a version looks like ("2022-11-28",
	// "v1", "1.4.2"); anything else in a version header is not kept.
	versionValue = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+:-]{0,63}$`)
)

// keptHeader returns the response headers of h a corpus needs:
// Content-Type, and the version headers whose values look like versions.
// It never keeps a header named like a secret, Authorization, Cookie,
// Set-Cookie, WWW-Authenticate or any Proxy-* header.
func keptHeader(h http.Header) http.Header {
	out := http.Header{}
	for name, values := range h {
		canon := http.CanonicalHeaderKey(name)
		if refusedHeader(canon) {
			continue
		}
		switch {
		case canon == "Content-Type":
			out[canon] = append([]string(nil), values...)
		case versionHeader.MatchString(canon) && allVersions(values):
			out[canon] = append([]string(nil), values...)
		}
	}
	return out
}

// refusedHeader reports whether the header named canon must never be
// kept, whatever the allowlist says.
func refusedHeader(canon string) bool {
	switch canon {
	case "Authorization", "Cookie", "Set-Cookie", "Www-Authenticate":
		return true
	}
	return strings.HasPrefix(canon, "Proxy-") || secretName.MatchString(canon)
}

// allVersions reports whether every value looks like a version.
func allVersions(values []string) bool {
	for _, v := range values {
		if !versionValue.MatchString(v) {
			return false
		}
	}
	return len(values) > 0
}
