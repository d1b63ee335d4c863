package variant

import (
	"bytes"
	"encoding/json"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// verdict is what the generator knows of a value against a rule.
type verdict int

const (
	// unsure: the rule holds a keyword or format the generator does not
	// read; operators skip the value.
	unsure verdict = iota
	accepts
	refuses
)

// judge tells whether the rule accepts the JSON literal lit (placeholders
// included). A literal that holds placeholders is judged under two
// renderings, short canaries and full-length ones; when they disagree the
// verdict is unsure.
func (r *rule) judge(lit string) verdict {
	var out verdict
	for i, rendered := range sampleRenderings(lit) {
		v := r.judgeRendered(rendered)
		if i > 0 && v != out {
			return unsure
		}
		out = v
	}
	return out
}

// judgeRendered judges one rendered literal.
func (r *rule) judgeRendered(lit string) verdict {
	if r.unknown {
		return unsure
	}
	dec := json.NewDecoder(strings.NewReader(lit))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return unsure
	}
	if !r.typeAllows(v) {
		return refuses
	}
	if r.hasEnum && !slices.Contains(r.enum, canonical(v)) {
		return refuses
	}
	switch v := v.(type) {
	case string:
		return r.judgeString(v)
	case json.Number:
		return r.judgeNumber(v)
	}
	return accepts
}

// typeAllows checks "type".
func (r *rule) typeAllows(v any) bool {
	if len(r.types) == 0 {
		return true
	}
	for _, t := range r.types {
		if kindOf(v) == t || (t == "number" && kindOf(v) == "integer") {
			return true
		}
	}
	return false
}

// kindOf names v's JSON Schema type ("integer" for whole numbers).
func kindOf(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if f, err := v.Float64(); err == nil && f == math.Trunc(f) && !math.IsInf(f, 0) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	}
	return "object"
}

// judgeString checks the string keywords.
func (r *rule) judgeString(s string) verdict {
	n := utf8.RuneCountInString(s)
	switch {
	case r.minLength >= 0 && n < r.minLength,
		r.maxLength >= 0 && n > r.maxLength,
		r.pattern != nil && !r.pattern.MatchString(s):
		return refuses
	}
	switch r.format {
	case "":
		return accepts
	case "date-time":
		return boolVerdict(isDateTime(s))
	case "date":
		return boolVerdict(isDate(s))
	case "uri":
		u, err := url.Parse(s)
		return boolVerdict(err == nil && u.IsAbs())
	}
	return unsure
}

// judgeNumber checks minimum and maximum.
func (r *rule) judgeNumber(n json.Number) verdict {
	f, err := n.Float64()
	if err != nil {
		return unsure
	}
	if (r.minimum != nil && f < *r.minimum) || (r.maximum != nil && f > *r.maximum) {
		return refuses
	}
	return accepts
}

// boolVerdict maps true to accepts and false to refuses.
func boolVerdict(ok bool) verdict {
	if ok {
		return accepts
	}
	return refuses
}

// isDate follows the RFC 3339 full-date grammar as JSON Schema's format
// assertion does: YYYY-MM-DD, a day that exists.
func isDate(s string) bool {
	if len(s) != 10 {
		return false
	}
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

// isDateTime follows the RFC 3339 date-time grammar as JSON Schema's
// format assertion does: 't' or 'T', 'z' or 'Z' or an offset, seconds up
// to 60, optional fraction.
func isDateTime(s string) bool {
	if len(s) < 20 || (s[10] != 'T' && s[10] != 't') {
		return false
	}
	if _, err := time.Parse("2006-01-02", s[:10]); err != nil {
		return false
	}
	rest := s[11:]
	if len(rest) < 9 || rest[2] != ':' || rest[5] != ':' {
		return false
	}
	h, m, sec := atoi(rest[0:2]), atoi(rest[3:5]), atoi(rest[6:8])
	if h < 0 || h > 23 || m < 0 || m > 59 || sec < 0 || sec > 60 {
		return false
	}
	rest = rest[8:]
	if frac, ok := strings.CutPrefix(rest, "."); ok {
		i := 0
		for i < len(frac) && frac[i] >= '0' && frac[i] <= '9' {
			i++
		}
		if i == 0 {
			return false
		}
		rest = frac[i:]
	}
	return isZone(rest)
}

// isZone reports whether s is "Z", "z" or "+hh:mm"/"-hh:mm".
func isZone(s string) bool {
	if s == "Z" || s == "z" {
		return true
	}
	if len(s) != 6 || (s[0] != '+' && s[0] != '-') || s[3] != ':' {
		return false
	}
	h, m := atoi(s[1:3]), atoi(s[4:6])
	return h >= 0 && h <= 23 && m >= 0 && m <= 59
}

// atoi parses a run of two ASCII digits, or returns -1.
func atoi(s string) int {
	if len(s) != 2 || s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
		return -1
	}
	n, _ := strconv.Atoi(s)
	return n
}

// sampleRenderings renders the placeholders of lit in two ways: canaries
// as "tc" plus their name (as the package's tests do) and as full-length
// tokens of a run; time placeholders as a fixed clock.
func sampleRenderings(lit string) []string {
	if !strings.Contains(lit, "{{") {
		return []string{lit}
	}
	return []string{renderSample(lit, false), renderSample(lit, true)}
}

// renderSample replaces every {{...}} in lit: canaries by "tc"+name or by
// a 20-character token, anything else by an RFC 3339 time.
func renderSample(lit string, long bool) string {
	var b bytes.Buffer
	rest := lit
	for {
		i := strings.Index(rest, "{{")
		j := strings.Index(rest[max(i, 0):], "}}")
		if i < 0 || j < 0 {
			b.WriteString(rest)
			return b.String()
		}
		b.WriteString(rest[:i])
		name := rest[i+2 : i+j]
		switch c, ok := strings.CutPrefix(name, "canary:"); {
		case ok && long:
			b.WriteString("tcabcdefghijklmnopqr")
		case ok:
			b.WriteString("tc" + c)
		default:
			b.WriteString("2026-11-29T16:00:00Z")
		}
		rest = rest[i+j+2:]
	}
}
