package variant

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/toolcert/toolcert/protocol"
)

// encodingOperators break the bytes of a document: byte order marks,
// invalid UTF-8, lone surrogates, control characters, non-finite numbers,
// truncation and data after the document. A correct adapter refuses all of
// them at the parse gate.
func encodingOperators() []operator {
	return []operator{
		{name: "bom", describe: "a UTF-8 byte order mark before the document", json: bomJSON, kv: bomKV},
		{name: "invalid_utf8", describe: "bytes that are not UTF-8 at the end of every string: 0xFF (#ff), an overlong '/' (#overlong), an encoded surrogate (#surrogate)", json: invalidUTF8JSON, kv: invalidUTF8KV},
		{name: "lone_surrogate", describe: `a lone surrogate escape at the end of every string: high \ud800 (#high) or low \udc00 (#low)`, json: loneSurrogate},
		{name: "control_char", describe: "a raw U+0001 inside every string", json: controlChar},
		{name: "nan", describe: "NaN in place of every number (of one string when there is none)", json: nonfinite("NaN")},
		{name: "infinity", describe: "Infinity in place of every number (of one string when there is none), or -Infinity (#negative)", json: infinity},
		{name: "huge_number", describe: "1e400, beyond float64, in place of every number (of one string when there is none)", json: nonfinite("1e400")},
		{name: "truncate", describe: "the document cut at seeded offsets (#offset), never inside a placeholder, always after a canary", json: truncateJSON, kv: truncateKV},
		{name: "trailing_data", describe: "a second document (#document) or a line of text (#text) after the first, with a canary", json: trailingData},
	}
}

// invalidBytes are invalid_utf8's byte sequences by tag.
var invalidBytes = []struct{ tag, bytes string }{
	{"ff", "\xff"},
	{"overlong", "\xc0\xaf"},
	{"surrogate", "\xed\xa0\x80"},
}

// bytesDraft is a draft of the early-marked tree's bytes, changed by f.
func bytesDraft(x *example, field, tag, note string, avoid string, e Expect, f func([]byte) []byte) draft {
	t := x.markedFor(field, avoid, true)
	return draft{field: field, tag: tag, note: note, body: f(t.encode()), expect: e, mark: t.markPointer()}
}

func bomJSON(x *example) []draft {
	return []draft{bytesDraft(x, "", "", "a UTF-8 byte order mark first", "", parseFault(protocol.ReasonBOM), func(b []byte) []byte {
		return append([]byte("\xef\xbb\xbf"), b...)
	})}
}

// inEveryString drafts, for every string leaf, the early-marked tree with
// that string's literal changed by f.
func inEveryString(x *example, tag, note string, e Expect, f func(lit string) string) []draft {
	var out []draft
	for _, ptr := range x.stringLeaves() {
		t := x.markedFor(ptr, "", true)
		t.at(ptr).lit = f(t.at(ptr).lit)
		out = append(out, treeDraft(ptr, tag, ptr+" "+note, t, e))
	}
	return out
}

func invalidUTF8JSON(x *example) []draft {
	var out []draft
	for _, b := range invalidBytes {
		out = append(out, inEveryString(x, b.tag, fmt.Sprintf("ends in the bytes %q", b.bytes), parseFault(protocol.ReasonInvalidUTF8), func(lit string) string {
			return appendText(lit, b.bytes)
		})...)
	}
	return sortByField(out)
}

func loneSurrogate(x *example) []draft {
	var out []draft
	for _, s := range []struct{ tag, esc string }{{"high", `\ud800`}, {"low", `\udc00`}} {
		out = append(out, inEveryString(x, s.tag, "ends in "+s.esc, parseFault(protocol.ReasonInvalidSurrogate), func(lit string) string {
			return appendText(lit, s.esc)
		})...)
	}
	return sortByField(out)
}

func controlChar(x *example) []draft {
	return inEveryString(x, "", "holds a raw U+0001", parseFault(protocol.ReasonSyntax), func(lit string) string {
		return appendText(lit, "\x01")
	})
}

// sortByField orders drafts by the document order of their field, keeping
// the order of tags within a field.
func sortByField(ds []draft) []draft {
	var fields []string
	for _, d := range ds {
		if !slices.Contains(fields, d.field) {
			fields = append(fields, d.field)
		}
	}
	slices.SortStableFunc(ds, func(a, b draft) int {
		return slices.Index(fields, a.field) - slices.Index(fields, b.field)
	})
	return ds
}

// numberTargets returns the number leaves, or the first string leaf when
// there is none.
func numberTargets(x *example) []string {
	if ptrs := x.numberLeaves(); len(ptrs) > 0 {
		return ptrs
	}
	return x.stringLeaves()[:min(1, len(x.stringLeaves()))]
}

// nonfinite returns an operator function that writes lit in place of the
// number targets.
func nonfinite(lit string) func(*example) []draft {
	return func(x *example) []draft { return nonfiniteTagged(x, "", lit) }
}

// nonfiniteTagged drafts lit in place of every number target.
func nonfiniteTagged(x *example, tag, lit string) []draft {
	var out []draft
	for _, ptr := range numberTargets(x) {
		t := x.markedFor(ptr, ptr, true)
		t.set(ptr, litNode(lit))
		out = append(out, treeDraft(ptr, tag, ptr+" is "+lit, t, parseFault(protocol.ReasonNonfinite)))
	}
	return out
}

func infinity(x *example) []draft {
	return sortByField(append(nonfiniteTagged(x, "", "Infinity"), nonfiniteTagged(x, "negative", "-Infinity")...))
}

// truncateCount is how many offsets truncate picks per example.
const truncateCount = 6

func truncateJSON(x *example) []draft {
	body := x.markedEarly("").encode() // no parser reads past a cut: the mark's place does not matter
	end := len(body) - 1               // keep the root's closing bracket out
	return truncated(x, body, end, parseFault(protocol.ReasonTruncated))
}

// truncated drafts body cut at seeded offsets in (first canary's end,
// end]: never inside a placeholder or a UTF-8 sequence, never right after
// a backslash, and for a key_value document never right after a line end
// (whole lines: missing_key's and no_final_newline's answers).
func truncated(x *example, body []byte, end int, e Expect) []draft {
	var cands []int
	spans := placeholderSpans(body)
	for k := firstCanaryEnd(body); k <= end; k++ {
		if k < len(body) && !utf8.RuneStart(body[k]) || body[k-1] == '\\' || insideSpan(spans, k) || x.kv != nil && body[k-1] == '\n' {
			continue
		}
		cands = append(cands, k)
	}
	rng := x.rng("truncate")
	var picks []int
	for len(cands) > 0 && len(picks) < truncateCount {
		i := rng.intn(len(cands))
		picks = append(picks, cands[i])
		cands = slices.Delete(cands, i, i+1)
	}
	slices.Sort(picks)
	mark := x.findMark(body)
	var out []draft
	for _, k := range picks {
		d := draft{tag: strconv.Itoa(k), note: fmt.Sprintf("cut after %d of %d bytes", k, len(body)), body: slices.Clone(body[:k]), expect: e}
		if bytes.Contains(d.body, []byte(markPlaceholder)) {
			d.mark = mark
		}
		out = append(out, d)
	}
	return out
}

// placeholderSpans returns the [start, end) byte ranges of the {{...}}
// placeholders in b.
func placeholderSpans(b []byte) [][2]int {
	var spans [][2]int
	for i := 0; i+1 < len(b); i++ {
		if b[i] != '{' || b[i+1] != '{' {
			continue
		}
		for j := i + 2; j+1 < len(b); j++ {
			if b[j] == '}' && b[j+1] == '}' {
				spans = append(spans, [2]int{i, j + 2})
				i = j + 1
				break
			}
		}
	}
	return spans
}

// insideSpan reports whether cutting before k splits a span.
func insideSpan(spans [][2]int, k int) bool {
	for _, s := range spans {
		if k > s[0] && k < s[1] {
			return true
		}
	}
	return false
}

// firstCanaryEnd returns the offset just past the first canary
// placeholder (len(b)+1 when there is none, so nothing is cut).
func firstCanaryEnd(b []byte) int {
	for _, s := range placeholderSpans(b) {
		if string(b[s[0]:min(s[0]+len(canaryOpen), len(b))]) == canaryOpen {
			return s[1]
		}
	}
	return len(b) + 1
}

func trailingData(x *example) []draft {
	e := parseFault(protocol.ReasonTrailingData)
	return []draft{
		bytesDraft(x, "", "document", "a second document after the first", "", e, func(b []byte) []byte {
			return append(b, "\n{\"note\": \"{{canary:trailing}}\"}"...)
		}),
		bytesDraft(x, "", "text", "a line of text after the document", "", e, func(b []byte) []byte {
			return append(b, "\nX-Trace: {{canary:trailing}}\n"...)
		}),
	}
}
