package reports

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// isInvisible reports whether r is a character a reader does not see but
// that changes how the text around it reads: every format character of
// Unicode (category Cf: the bidirectional controls and marks U+061C,
// U+200E, U+200F, U+202A..U+202E and U+2066..U+2069, the zero-width space,
// joiners and word joiner, the byte order mark U+FEFF, the soft hyphen, and
// the tag characters U+E0000..U+E007F that can spell hidden ASCII), and the
// line and paragraph separators U+2028 and U+2029 (Zl, Zp), which some
// viewers break lines at and others do not.
func isInvisible(r rune) bool {
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// inert is the one rule for invisible characters ([isInvisible]) in every
// report format and on the console: each is written as a visible escape,
// \uNNNN (\UNNNNNNNN beyond U+FFFF), so that a reader sees that it is
// there and none can reorder or hide text; invalid UTF-8 becomes U+FFFD.
// Every renderer passes text that may come from an adapter or a feature
// file through it (or through [inertResult], [stripTerminal] or
// [Printable], which apply it).
func inert(s string) string {
	if !strings.ContainsFunc(s, isInvisible) && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		writeRune(&b, r)
	}
	return b.String()
}

// writeRune writes r, or its visible escape when r is invisible.
func writeRune(b *strings.Builder, r rune) {
	switch {
	case !isInvisible(r):
		b.WriteRune(r)
	case r > 0xFFFF:
		fmt.Fprintf(b, `\U%08x`, r)
	default:
		fmt.Fprintf(b, `\u%04x`, r)
	}
}

// stripTerminal makes adapter text readable and inert for a file a viewer
// renders (Markdown, SARIF): invalid UTF-8 becomes U+FFFD, ANSI escape
// sequences and control characters (but tabs and newlines) are dropped,
// and invisible characters are written as visible escapes, as [inert]
// does. Printable is its counterpart for a terminal, which shows what it
// dropped.
func stripTerminal(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			i += escapeLen(s[i:])
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if !isTerminalControl(r) {
			writeRune(&b, r)
		}
	}
	return b.String()
}

// Printable returns s as a terminal can show it without acting on it, for
// any text that may quote an adapter (an error, evidence, an output tail)
// on its way to a terminal. Newlines and tabs stay; every other byte a
// terminal would act on becomes a visible escape: an invalid UTF-8 byte and
// a C0 control or DEL as \xNN (ESC as \x1b, so an escape sequence shows as
// text), a C1 control as \uNNNN, and an invisible character (a
// bidirectional control, a zero-width or other format character, a line
// or paragraph separator) as [inert] writes it in every report format. The
// rest of s is kept as it is, backslashes included.
func Printable(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < utf8.RuneSelf && isTerminalControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case isTerminalControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			writeRune(&b, r)
		}
		i += n
	}
	return b.String()
}

// isTerminalControl reports whether a terminal could act on r were it
// written raw: a C0 or C1 control character or DEL, but tab and newline.
func isTerminalControl(r rune) bool {
	return r != '\n' && r != '\t' && unicode.IsControl(r)
}

// escapeLen returns the length of the terminal escape sequence that s
// starts with (s[0] is ESC): a CSI sequence up to its final byte, an OSC,
// DCS or other string up to its terminator, or ESC and one character.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
			if s[i] < 0x20 || s[i] > 0x3f {
				return i
			}
		}
		return len(s)
	case ']', 'P', 'X', '^', '_':
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b {
				return i + min(2, len(s)-i)
			}
		}
		return len(s)
	}
	_, n := utf8.DecodeRuneInString(s[1:])
	return 1 + n
}

// clipText keeps the first maxLines lines and at most maxBytes bytes of s,
// cut at a rune boundary, and says when it cut.
func clipText(s string, maxLines, maxBytes int) string {
	cut := false
	if lines := strings.SplitAfterN(s, "\n", maxLines+1); len(lines) > maxLines {
		s, cut = strings.Join(lines[:maxLines], ""), true
	}
	if len(s) > maxBytes {
		s = s[:maxBytes]
		for r, n := utf8.DecodeLastRuneInString(s); r == utf8.RuneError && n == 1; r, n = utf8.DecodeLastRuneInString(s) {
			s = s[:len(s)-1] // a rune cut in two
		}
		cut = true
	}
	if cut {
		s = strings.TrimRight(s, "\n") + "\n… (truncated)"
	}
	return s
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// inertResult returns a copy of r whose every text (names, errors,
// evidence, tags, reproducers, feature titles and descriptions) has passed
// through [inert]; r is left as it is. A renderer that writes the model's
// text as it is (JUnit, cucumber JSON, CTRF) renders the copy.
func inertResult(r *Result) *Result {
	out := *r
	out.Tool, out.Version, out.Target, out.Shard = inert(r.Tool), inert(r.Version), inert(r.Target), inert(r.Shard)
	out.BaselineUnmatched = inertAll(r.BaselineUnmatched)
	out.Scenarios = make([]Scenario, len(r.Scenarios))
	for i, sc := range r.Scenarios {
		out.Scenarios[i] = inertScenario(sc)
	}
	out.Coverage = make([]Cell, len(r.Coverage))
	for i, c := range r.Coverage {
		c.Operator, c.Tool, c.Field = inert(c.Operator), inert(c.Tool), inert(c.Field)
		out.Coverage[i] = c
	}
	if r.Coverage == nil {
		out.Coverage = nil
	}
	return &out
}

func inertScenario(sc Scenario) Scenario {
	sc.ID, sc.Feature, sc.Name, sc.Error = inert(sc.ID), inert(sc.Feature), inert(sc.Name), inert(sc.Error)
	sc.Tags = inertAll(sc.Tags)
	sc.Evidence = inertEvidence(sc.Evidence)
	sc.Saw, sc.Requests, sc.TargetOutput = inertParts(sc.Saw), inertRequests(sc.Requests), inert(sc.TargetOutput)
	sc.SkippedCases = inertAll(sc.SkippedCases)
	if sc.Steps != nil {
		steps := make([]Step, len(sc.Steps))
		for i, st := range sc.Steps {
			st.Keyword, st.Text, st.Error = inert(st.Keyword), inert(st.Text), inert(st.Error)
			steps[i] = st
		}
		sc.Steps = steps
	}
	if sc.Cases != nil {
		cases := make([]Case, len(sc.Cases))
		for i, c := range sc.Cases {
			c.ID, c.Tool, c.Operator, c.Field = inert(c.ID), inert(c.Tool), inert(c.Operator), inert(c.Field)
			c.Reproducer, c.Evidence = inert(c.Reproducer), inertEvidence(c.Evidence)
			c.Saw, c.Requests, c.TargetOutput = inertParts(c.Saw), inertRequests(c.Requests), inert(c.TargetOutput)
			cases[i] = c
		}
		sc.Cases = cases
	}
	if sc.Gherkin != nil {
		g := *sc.Gherkin
		g.Keyword, g.Description, g.Tags = inert(g.Keyword), inert(g.Description), inertTags(g.Tags)
		g.Feature.Keyword, g.Feature.Name = inert(g.Feature.Keyword), inert(g.Feature.Name)
		g.Feature.Description, g.Feature.Tags = inert(g.Feature.Description), inertTags(g.Feature.Tags)
		sc.Gherkin = &g
	}
	return sc
}

func inertParts(parts []Part) []Part {
	if parts == nil {
		return nil
	}
	out := make([]Part, len(parts))
	for i, p := range parts {
		p.Where, p.Text = inert(p.Where), inert(p.Text)
		out[i] = p
	}
	return out
}

func inertRequests(reqs []Request) []Request {
	if reqs == nil {
		return nil
	}
	out := make([]Request, len(reqs))
	for i, r := range reqs {
		r.Method, r.Path, r.Route = inert(r.Method), inert(r.Path), inert(r.Route)
		out[i] = r
	}
	return out
}

func inertEvidence(ev []Evidence) []Evidence {
	if ev == nil {
		return nil
	}
	out := make([]Evidence, len(ev))
	for i, e := range ev {
		e.Kind, e.Message, e.Canary, e.Planted = inert(e.Kind), inert(e.Message), inert(e.Canary), inert(e.Planted)
		e.Surfaced, e.Encoding, e.Diff = inert(e.Surfaced), inert(e.Encoding), inert(e.Diff)
		out[i] = e
	}
	return out
}

func inertTags(tags []Tag) []Tag {
	if tags == nil {
		return nil
	}
	out := make([]Tag, len(tags))
	for i, t := range tags {
		out[i] = Tag{Name: inert(t.Name), Line: t.Line, Column: t.Column}
	}
	return out
}

func inertAll(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = inert(s)
	}
	return out
}
