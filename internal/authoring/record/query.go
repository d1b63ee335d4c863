package record

import (
	"net/url"
	"regexp"
	"strings"
)

// redacted replaces the value of a secret query parameter.
const redacted = "REDACTED"

var (
	// secretParamWord matches a whole word of a parameter name that
	// names a secret ("sig", "key", "auth" alone, or in "api-key").
	secretParamWord = regexp.MustCompile(`(?i)^(token|key|secret|signature|sig|password|passwd|auth|apikey)$`)
	// secretParamPart matches a parameter name containing a secret's
	// name anywhere ("access_token", "X-Amz-Signature", "client_secret");
	// "auth" counts only as a word or in a longer name of a secret, so
	// "author" is kept.
	secretParamPart = regexp.MustCompile(`(?i)token|secret|signature|password|api_?key|authoriz|authentic|oauth|credential`)
	// wordSeparator splits a parameter name into words.
	wordSeparator = regexp.MustCompile(`[-_.\[\]]+`)
)

// redactQuery returns raw with the value of every parameter named like a
// secret replaced by "REDACTED"; every other byte is kept as it was.
func redactQuery(raw string) string {
	if raw == "" {
		return ""
	}
	parts := strings.Split(raw, "&")
	for i, part := range parts {
		name, _, hasValue := strings.Cut(part, "=")
		if hasValue && secretParam(name) {
			parts[i] = name + "=" + redacted
		}
	}
	return strings.Join(parts, "&")
}

// secretParam reports whether the (escaped) parameter name names a
// secret.
func secretParam(escaped string) bool {
	name, err := url.QueryUnescape(escaped)
	if err != nil {
		name = escaped
	}
	if secretParamPart.MatchString(name) {
		return true
	}
	for _, word := range wordSeparator.Split(name, -1) {
		if secretParamWord.MatchString(word) {
			return true
		}
	}
	return false
}
