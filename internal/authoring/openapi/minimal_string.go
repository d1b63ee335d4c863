package openapi

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// formatSamples are values of each Draft 2020-12 format.
var formatSamples = map[string]string{
	"date-time":             "2024-01-01T00:00:00Z",
	"date":                  "2024-01-01",
	"time":                  "00:00:00Z",
	"duration":              "P1D",
	"email":                 "user@example.com",
	"idn-email":             "user@example.com",
	"hostname":              "example.com",
	"idn-hostname":          "example.com",
	"ipv4":                  "192.0.2.1",
	"ipv6":                  "2001:db8::1",
	"uri":                   "https://example.com/",
	"iri":                   "https://example.com/",
	"uri-reference":         "/",
	"iri-reference":         "/",
	"uuid":                  "00000000-0000-4000-8000-000000000000",
	"uri-template":          "https://example.com/{id}",
	"json-pointer":          "/a",
	"relative-json-pointer": "0",
	"regex":                 "a",
}

// stringFor makes the string flat describes: the sample of its format,
// else a match of its pattern, else "", lengthened to minLength.
func stringFor(flat []sub) (any, error) {
	minLen, format, patterns := stringConstraints(flat)
	if sample, ok := formatSamples[format]; ok {
		return sample, nil
	}
	if len(patterns) == 0 {
		return strings.Repeat("a", minLen), nil
	}
	return patternSample(patterns, minLen)
}

// patternSample returns a string of at least minLen characters the first
// pattern matches (and the others, checked by the caller's validation).
func patternSample(patterns []string, minLen int) (string, error) {
	return patternMatch(patterns, minLen, minLen, func(string) bool { return true })
}

// patternMatch returns the first string of at least minLen characters
// that every pattern matches and ok takes, trying up to tries extra
// repetitions beyond the least.
func patternMatch(patterns []string, minLen, tries int, ok func(string) bool) (string, error) {
	re, err := syntax.Parse(patterns[0], syntax.Perl)
	if err != nil {
		return "", fmt.Errorf("pattern %q: %w", patterns[0], err)
	}
	re = re.Simplify()
	for extra := 0; extra <= tries; extra++ {
		g := &regexGen{extra: extra}
		s, err := g.gen(re)
		if err != nil {
			return "", fmt.Errorf("pattern %q: %w", patterns[0], err)
		}
		if utf8.RuneCountInString(s) >= minLen && matchesAll(patterns, s) && ok(s) {
			return s, nil
		}
	}
	return "", fmt.Errorf("pattern %q: no string of %d characters found", patterns[0], minLen)
}

// matchesAll reports whether every pattern matches s.
func matchesAll(patterns []string, s string) bool {
	for _, p := range patterns {
		if re, err := regexp.Compile(p); err != nil || !re.MatchString(s) {
			return false
		}
	}
	return true
}

// regexGen writes a string a regular expression matches: the first
// alternative, the least repetitions, the first character of a class;
// extra repetitions go to the first repeat that allows more.
type regexGen struct {
	extra int
	b     strings.Builder
}

// errNoMatch is returned for a regular expression that matches nothing.
var errNoMatch = errors.New("matches nothing")

// gen returns a match of re.
func (g *regexGen) gen(re *syntax.Regexp) (string, error) {
	g.b.Reset()
	if err := g.write(re); err != nil {
		return "", err
	}
	return g.b.String(), nil
}

// write appends a match of re.
func (g *regexGen) write(re *syntax.Regexp) error {
	switch re.Op {
	case syntax.OpNoMatch:
		return errNoMatch
	case syntax.OpLiteral:
		g.b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return errNoMatch
		}
		g.b.WriteRune(classRune(re.Rune))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		g.b.WriteByte('a')
	case syntax.OpCapture:
		return g.write(re.Sub[0])
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if err := g.write(s); err != nil {
				return err
			}
		}
	case syntax.OpAlternate:
		return g.write(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		return g.repeat(re)
	}
	return nil
}

// repeat appends the least repetitions of re's operand, plus the extra
// ones it can take.
func (g *regexGen) repeat(re *syntax.Regexp) error {
	lo, hi := re.Min, re.Max
	switch re.Op {
	case syntax.OpStar:
		lo, hi = 0, -1
	case syntax.OpPlus:
		lo, hi = 1, -1
	case syntax.OpQuest:
		lo, hi = 0, 1
	}
	n := lo
	if more := g.extra; more > 0 && (hi < 0 || hi > lo) {
		if hi >= 0 {
			more = min(more, hi-lo)
		}
		n += more
		g.extra -= more
	}
	for range n {
		if err := g.write(re.Sub[0]); err != nil {
			return err
		}
	}
	return nil
}

// classRune picks a character of a class given as ranges: a lower-case
// letter, an upper-case one or a digit when the class has one, else its
// first character.
func classRune(ranges []rune) rune {
	for _, want := range []rune{'a', 'A', '0'} {
		for i := 0; i+1 < len(ranges); i += 2 {
			if ranges[i] <= want && want <= ranges[i+1] {
				return want
			}
		}
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i] > ' ' || ranges[i+1] > ' ' {
			return max(ranges[i], '!')
		}
	}
	return ranges[0]
}

// stringConstraints returns what the schemas of flat ask of a string:
// the longest minLength, the first format, every pattern.
func stringConstraints(flat []sub) (minLen int, format string, patterns []string) {
	for _, s := range flat {
		o := s.s.(*object)
		minLen = max(minLen, intOf(o, "minLength"))
		if f := o.str("format"); f != "" && format == "" {
			format = f
		}
		if p := o.str("pattern"); p != "" {
			patterns = append(patterns, p)
		}
	}
	return minLen, format, patterns
}
