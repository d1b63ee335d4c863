package steps

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/targets"
)

// How the agent's data is compared with the corpus's expected data: value
// by value (strict JSON values, numbers by their text), with what the
// tool map's compare declares (targets.Compare) and the tool's optional
// fields; or, for an expect written as a list of values or a result the
// target renders as prose, by the values the text must hold.

// comparison says how data is compared for one tool.
type comparison struct {
	targets.Compare
	// optional are the agent pointers of the tool's optional fields: a
	// target may leave each out or show it as null.
	optional []string
}

// comparisonOf returns how the data of tool is compared.
func (s *Suite) comparisonOf(tool string) comparison {
	c := comparison{Compare: s.toolMap(tool).Compare}
	t, err := s.tool(tool)
	if err != nil {
		return c
	}
	for _, v := range t.Versions {
		for _, f := range v.Optional {
			if !strings.HasPrefix(f, "/") {
				f = "/" + judge.EscapePointerToken(f)
			}
			if !slices.Contains(c.optional, f) {
				c.optional = append(c.optional, f)
			}
		}
	}
	return c
}

// dataDiff returns, one a line, how got differs from want, "" when it
// does not: "/x: want "a", got "b"", "/x: missing (want 3)", "/y: invented
// data "z"". The lines are sorted, and stable from run to run.
func (c comparison) dataDiff(want, got any) string {
	var lines []string
	c.walk("", want, got, &lines)
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// walk compares want and got at ptr, appending a line per difference.
func (c comparison) walk(ptr string, want, got any, lines *[]string) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*lines = append(*lines, fmt.Sprintf("%s: want an object, got %s", where(ptr), describeValue(got)))
			return
		}
		for name, wv := range w {
			p := ptr + "/" + judge.EscapePointerToken(name)
			gv, present := g[name]
			switch {
			case !present && (c.OmitZero && isZero(wv) || slices.Contains(c.optional, p)):
			case !present:
				*lines = append(*lines, fmt.Sprintf("%s: missing (want %s)", p, describeValue(wv)))
			default:
				c.walk(p, wv, gv, lines)
			}
		}
		for name, gv := range g {
			p := ptr + "/" + judge.EscapePointerToken(name)
			if _, expected := w[name]; expected || c.adds(p) || gv == nil && slices.Contains(c.optional, p) {
				continue
			}
			*lines = append(*lines, fmt.Sprintf("%s: invented data %s (the corpus expects no such member; a member the target adds of its own goes in the tool map's compare adds)", p, describeValue(gv)))
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			*lines = append(*lines, fmt.Sprintf("%s: want %s, got %s", where(ptr), describeValue(want), describeValue(got)))
			return
		}
		for i := range w {
			c.walk(fmt.Sprintf("%s/%d", ptr, i), w[i], g[i], lines)
		}
	default:
		if !c.sameScalar(want, got) {
			*lines = append(*lines, fmt.Sprintf("%s: want %s, got %s", where(ptr), describeValue(want), describeValue(got)))
		}
	}
}

// sameScalar reports whether two scalars are the same: equal, or two
// timestamps naming one instant when Instants is declared.
func (c comparison) sameScalar(want, got any) bool {
	if want == got {
		return true
	}
	ws, wok := want.(string)
	gs, gok := got.(string)
	if !c.Instants || !wok || !gok {
		return false
	}
	wt, err1 := judge.ParseTimestamp(ws)
	gt, err2 := judge.ParseTimestamp(gs)
	return err1 == nil && err2 == nil && wt.Equal(gt)
}

// adds reports whether the member at ptr is one the target adds of its
// own, by the tool map's compare adds ("*" matching any token).
func (c comparison) adds(ptr string) bool { return matchesAny(c.Adds, ptr) }

// withoutHidden returns want, at ptr of the data, without the members the
// tool map's compare hidden names: what the target does not show of the
// answer is not expected of it.
func (c comparison) withoutHidden(ptr string, want any) any {
	if len(c.Hidden) == 0 {
		return want
	}
	switch w := want.(type) {
	case map[string]any:
		out := make(map[string]any, len(w))
		for name, v := range w {
			p := ptr + "/" + judge.EscapePointerToken(name)
			if !matchesAny(c.Hidden, p) {
				out[name] = c.withoutHidden(p, v)
			}
		}
		return out
	case []any:
		out := make([]any, len(w))
		for i, v := range w {
			out[i] = c.withoutHidden(fmt.Sprintf("%s/%d", ptr, i), v)
		}
		return out
	}
	return want
}

// matchesAny reports whether ptr is one of pointers, a "*" token of theirs
// matching any token.
func matchesAny(pointers []string, ptr string) bool {
	toks := judge.PointerTokens(ptr)
	for _, a := range pointers {
		pat := judge.PointerTokens(a)
		if len(pat) != len(toks) {
			continue
		}
		match := true
		for i := range pat {
			if pat[i] != "*" && pat[i] != toks[i] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// isZero reports whether v is a zero value a target may leave out: "", 0,
// false, null, [] or {}.
func isZero(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case bool:
		return !x
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	s := fmt.Sprint(v)
	return strings.Trim(strings.TrimLeft(s, "-"), "0.") == "" && !strings.ContainsAny(s, "eE")
}

// valuesDiff returns, one a line, the values of want (a list of values, or
// the scalars of an object) that text does not hold; "" when it holds
// every one.
func valuesDiff(want any, text string) string {
	vals, ok := want.([]any)
	if !ok {
		for _, v := range corpus.LeafTexts(want) {
			vals = append(vals, v)
		}
	}
	var lines []string
	for _, v := range vals {
		if s := corpus.LeafText(v); !holds(text, s) {
			lines = append(lines, fmt.Sprintf("the agent's text does not hold %q", s))
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// holds reports whether text holds the value s as written, or, for an
// integer of more than three digits, written for a person with its
// thousands grouped ("864,000", "864 000", "864'000", "864_000",
// "864.000", a thin or no-break space), and not inside a longer number.
func holds(text, s string) bool {
	if strings.Contains(text, s) {
		return true
	}
	digits := strings.TrimPrefix(s, "-")
	if len(digits) <= 3 || strings.Trim(digits, "0123456789") != "" {
		return false
	}
	var groups []string
	for len(digits) > 3 {
		groups = append([]string{digits[len(digits)-3:]}, groups...)
		digits = digits[:len(digits)-3]
	}
	groups = append([]string{digits}, groups...)
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign = "-"
	}
	for _, sep := range []string{",", " ", "'", "_", ".", "\u202f", "\u00a0"} {
		grouped := sign + strings.Join(groups, sep)
		for i := strings.Index(text, grouped); i >= 0; {
			end := i + len(grouped)
			before := digitAt(text, i-1) || strings.HasSuffix(text[:i], sep) && digitAt(text, i-len(sep)-1)
			after := digitAt(text, end) || strings.HasPrefix(text[end:], sep) && digitAt(text, end+len(sep))
			if !before && !after {
				return true
			}
			next := strings.Index(text[i+1:], grouped)
			if next < 0 {
				break
			}
			i += next + 1
		}
	}
	return false
}

// digitAt reports whether text has an ASCII digit at byte i.
func digitAt(text string, i int) bool {
	return i >= 0 && i < len(text) && text[i] >= '0' && text[i] <= '9'
}

// where names ptr for a diff line.
func where(ptr string) string {
	if ptr == "" {
		return "the data"
	}
	return ptr
}

// describeValue writes v for a diff line, clipped.
func describeValue(v any) string {
	switch x := v.(type) {
	case map[string]any:
		return fmt.Sprintf("an object of %d members", len(x))
	case []any:
		return fmt.Sprintf("a list of %d", len(x))
	case string:
		return quoteClip(x, 0)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

// stableDiff returns go-cmp's (-want +got) diff of want and got with the
// non-breaking spaces go-cmp puts in at random made plain spaces: go-cmp
// keeps its output unstable on purpose, and evidence must read the same
// from run to run for the same seed.
func stableDiff(want, got any) string {
	return strings.ReplaceAll(cmp.Diff(want, got), "\u00a0", " ")
}
