package openapi

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// A full instance (genOptions.full) gives each string a value no other
// string of it has, where the schema allows one, so that a value seen
// later (in what an agent was shown) names the member it came from: a
// plain string is its member's name and a number ("name-1"), a format's
// sample is varied by that number ("user3@example.com"), a pattern is
// matched by a longer string, an enum gives a value not yet used.

// maxDistinctTries bounds the variants tried for one string.
const maxDistinctTries = 16

// sampleEpoch is the time a varied date or time counts from.
var sampleEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// testNets are the IPv4 documentation networks (RFC 5737).
var testNets = []string{"192.0.2.", "198.51.100.", "203.0.113."}

// formatVariant returns the n-th sample of a Draft 2020-12 format (n from
// 1), false for a format it does not vary.
func formatVariant(format string, n int) (string, bool) {
	switch format {
	case "date-time":
		return sampleEpoch.Add(time.Duration(n) * time.Second).Format(time.RFC3339), true
	case "date":
		return sampleEpoch.AddDate(0, 0, n).Format(time.DateOnly), true
	case "time":
		return sampleEpoch.Add(time.Duration(n)*time.Second).Format("15:04:05") + "Z", true
	case "duration":
		return fmt.Sprintf("P%dD", n), true
	case "email", "idn-email":
		return fmt.Sprintf("user%d@example.com", n), true
	case "hostname", "idn-hostname":
		return fmt.Sprintf("host%d.example.com", n), true
	case "ipv4":
		i := (n - 1) % (254 * len(testNets))
		return testNets[i/254] + strconv.Itoa(i%254+1), true
	case "ipv6":
		return fmt.Sprintf("2001:db8::%x", n), true
	case "uri", "iri":
		return fmt.Sprintf("https://example.com/%d", n), true
	case "uri-reference", "iri-reference":
		return fmt.Sprintf("/%d", n), true
	case "uuid":
		return fmt.Sprintf("00000000-0000-4000-8000-%012d", n%1_000_000_000_000), true
	case "uri-template":
		return fmt.Sprintf("https://example.com/%d/{id}", n), true
	case "json-pointer":
		return fmt.Sprintf("/a%d", n), true
	case "relative-json-pointer":
		return strconv.Itoa(n), true
	case "regex":
		return fmt.Sprintf("a%d", n), true
	}
	return "", false
}

// distinctString returns, in a full instance, a string flat accepts that
// no other string of the instance is, and false when it finds none (or
// the instance is not full).
func (g *generator) distinctString(flat []sub) (string, bool) {
	if !g.opts.full {
		return "", false
	}
	minLen, format, patterns := stringConstraints(flat)
	fresh := func(s string) bool { return !g.used[s] && g.accepts(flat, s) == nil }
	if _, known := formatSamples[format]; known {
		for range maxDistinctTries {
			g.made++
			if s, ok := formatVariant(format, g.made); ok && fresh(s) {
				return s, true
			}
		}
		return "", false
	}
	if len(patterns) > 0 {
		s, err := patternMatch(patterns, minLen, minLen+maxDistinctTries, fresh)
		return s, err == nil
	}
	label := g.label()
	for range maxDistinctTries {
		g.made++
		n := strconv.Itoa(g.made)
		for _, s := range []string{label + "-" + n, "s" + n, n} {
			if s = padTo(s, minLen); fresh(s) {
				return s, true
			}
		}
	}
	return "", false
}

// label names the value being made in a string: the name of the member
// it is, or is an element of; "value" for the answer itself.
func (g *generator) label() string {
	for i := len(g.path) - 1; i >= 0; i-- {
		if g.path[i] == "*" {
			continue
		}
		if s := strings.Trim(labelChars.ReplaceAllString(g.path[i], "_"), "_"); s != "" && len(s) <= 32 {
			return s
		}
		break
	}
	return "value"
}

// labelChars are what a label leaves out.
var labelChars = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// padTo lengthens s with "_" to n characters.
func padTo(s string, n int) string {
	if k := n - len([]rune(s)); k > 0 {
		return s + strings.Repeat("_", k)
	}
	return s
}

// unusedString returns, in a full instance, the first string of values
// that flat accepts and no other string of the instance is.
func (g *generator) unusedString(flat []sub, values []any) (any, bool) {
	if !g.opts.full {
		return nil, false
	}
	for _, v := range values {
		if s, ok := v.(string); ok && !g.used[s] && g.accepts(flat, v) == nil {
			return v, true
		}
	}
	return nil, false
}
