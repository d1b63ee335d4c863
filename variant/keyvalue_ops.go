package variant

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
)

// keyValueOperators break the strict "key=value\n" lines of a key_value
// tool. Everything but what only a binding catches is a parse text_format
// rejection.
func keyValueOperators() []operator {
	return []operator{
		{name: "banner_line", describe: "a banner line with a canary before the output", kv: bannerLine},
		{name: "extra_line", describe: "a line of text with a canary after the output", kv: extraLine},
		{name: "crlf", describe: `every line ending in \r\n`, kv: crlf},
		{name: "missing_key", describe: "every line removed in turn", kv: missingKey},
		{name: "duplicate_key", describe: "every line repeated with a canary value, the original first (#first) or last (#last)", kv: duplicateKey},
		{name: "extra_key", describe: "an extra key=value line: a canary value (#value) or a canary key (#name)", kv: extraKey},
		{name: "value_pattern_break", describe: "every value followed by a space and a canary", kv: valuePatternBreak},
		{name: "blank_line", describe: "an empty line at every position (#0 first)", kv: blankLine},
		{name: "key_case", describe: "every key with its first letter upper-cased", kv: keyCase},
		{name: "space_around_equals", describe: `every line written "key = value"`, kv: spaceAroundEquals},
		{name: "leading_space", describe: "every line indented by a space", kv: leadingSpace},
		{name: "trailing_space", describe: "every value followed by a space", kv: trailingSpace},
		{name: "reordered_lines", describe: "the lines in reverse order", kv: reorderedLines},
		{name: "no_final_newline", describe: "the last line without its newline", kv: noFinalNewline},
		{name: "escape_sequence", describe: "every value followed by a terminal escape sequence and a canary", kv: escapeSequence},
		{name: "json_body", describe: "the values as a JSON object with a canary member instead of lines", kv: jsonBody},
	}
}

// perKey drafts, for every key, the early-marked document changed by f; f
// returns false to skip a key.
func perKey(x *example, tag, note string, avoidKey bool, f func(d *kvDoc, i int) bool) []draft {
	var out []draft
	for _, key := range x.keys() {
		avoid := ""
		if avoidKey {
			avoid = key
		}
		d := x.markedEarlyKV(avoid)
		if !f(d, d.index(key)) {
			continue
		}
		out = append(out, kvDraft(key, tag, key+": "+note, d, textFault()))
	}
	return out
}

func bannerLine(x *example) []draft {
	d := x.kv.clone()
	d.lines = append([]kvLine{{key: "*** Authorized use only. {{canary:banner}} ***", noEq: true}}, d.lines...)
	return []draft{kvDraft("", "", "a banner line first", d, textFault())}
}

func extraLine(x *example) []draft {
	d := x.kv.clone()
	d.lines = append(d.lines, kvLine{key: "WARNING: {{canary:extra}}", noEq: true})
	return []draft{kvDraft("", "", "a warning line last", d, textFault())}
}

func crlf(x *example) []draft {
	d := x.markedEarlyKV("")
	d.eol = "\r\n"
	return []draft{kvDraft("", "", `lines end in \r\n`, d, textFault())}
}

func missingKey(x *example) []draft {
	return perKey(x, "", "line removed", true, func(d *kvDoc, i int) bool {
		d.lines = slices.Delete(d.lines, i, i+1)
		return true
	})
}

func duplicateKey(x *example) []draft {
	var out []draft
	for _, tag := range []string{"first", "last"} {
		out = append(out, perKey(x, tag, "line repeated with a canary value ("+tag+")", false, func(d *kvDoc, i int) bool {
			dup := kvLine{key: d.lines[i].key, value: "{{canary:dup}}"}
			at := i + 1
			if tag == "last" {
				at = i
			}
			d.lines = slices.Insert(d.lines, at, dup)
			return true
		})...)
	}
	return sortByField(out)
}

func extraKey(x *example) []draft {
	var out []draft
	for _, l := range []struct{ tag, key, value string }{{"value", "note", "{{canary:extra}}"}, {"name", "{{canary:extra}}", "1"}} {
		d := x.kv.clone()
		d.lines = append(d.lines, kvLine{key: l.key, value: l.value})
		out = append(out, kvDraft("", l.tag, fmt.Sprintf("an extra line %s=%s", l.key, l.value), d, textFault()))
	}
	return out
}

// valueVerdict is the expectation of a new value for key: text_format when
// its pattern refuses it, a binding mismatch when only the binding does.
func (x *example) valueVerdict(key, value string) (Expect, bool) {
	ptr := "/" + judge.EscapePointerToken(key)
	switch x.schema.at(ptr).judge(quote(value)) {
	case refuses:
		return textFault(), true
	case accepts:
		if _, ok := x.bound(ptr); ok {
			return semanticFault(protocol.ReasonBindingMismatch), true
		}
	}
	return Expect{}, false
}

// valueChanged drafts every value changed by f, judged by valueVerdict.
func valueChanged(x *example, tag, note string, f func(string) string) []draft {
	var out []draft
	for _, key := range x.keys() {
		d := x.kv.clone()
		i := d.index(key)
		d.lines[i].value = f(d.lines[i].value)
		e, ok := x.valueVerdict(key, d.lines[i].value)
		if !ok {
			continue
		}
		if e.Gate == string(protocol.GateParse) {
			d = x.markedEarlyKV(key)
		} else {
			d = x.markedKV(key)
		}
		i = d.index(key)
		d.lines[i].value = f(x.kv.lines[i].value)
		out = append(out, kvDraft(key, tag, key+": "+note, d, e))
	}
	return out
}

// patternBreaks are value_pattern_break's changes by tag.
var patternBreaks = []struct {
	tag, note string
	f         func(string) string
}{
	{"", "a space and a canary after the value", func(v string) string { return v + " {{canary:pattern}}" }},
	{"negative", "a minus sign before the value", func(v string) string { return "-" + v }},
	{"plus", "a plus sign before the value", func(v string) string { return "+" + v }},
	{"fraction", "a fraction after the value", func(v string) string { return v + ".5" }},
	{"long", "twelve zeros after the value", func(v string) string { return v + "000000000000" }},
}

func valuePatternBreak(x *example) []draft {
	var out []draft
	for _, b := range patternBreaks {
		out = append(out, valueChanged(x, b.tag, b.note, b.f)...)
	}
	return sortByField(out)
}

func trailingSpace(x *example) []draft {
	return valueChanged(x, "", "a space after the value", func(v string) string { return v + " " })
}

func blankLine(x *example) []draft {
	var out []draft
	for i := 0; i <= len(x.kv.lines); i++ {
		d := x.markedEarlyKV("")
		d.lines = slices.Insert(d.lines, i, kvLine{noEq: true})
		out = append(out, kvDraft("", fmt.Sprint(i), fmt.Sprintf("an empty line before line %d", i+1), d, textFault()))
	}
	return out
}

func keyCase(x *example) []draft {
	return perKey(x, "", "key with an upper-case first letter", false, func(d *kvDoc, i int) bool {
		up := swapCase(d.lines[i].key)
		d.lines[i].key = up
		return up != x.kv.lines[i].key
	})
}

func spaceAroundEquals(x *example) []draft {
	return perKey(x, "", `written "key = value"`, false, func(d *kvDoc, i int) bool {
		d.lines[i].key += " "
		d.lines[i].value = " " + d.lines[i].value
		return true
	})
}

func leadingSpace(x *example) []draft {
	return perKey(x, "", "line indented by a space", false, func(d *kvDoc, i int) bool {
		d.lines[i].key = " " + d.lines[i].key
		return true
	})
}

func reorderedLines(x *example) []draft {
	if len(x.kv.lines) < 2 {
		return nil
	}
	d := x.markedEarlyKV("")
	slices.Reverse(d.lines)
	return []draft{kvDraft("", "", "lines in reverse order", d, textFault())}
}

func noFinalNewline(x *example) []draft {
	d := x.markedEarlyKV("")
	d.final = false
	return []draft{kvDraft("", "", "no newline after the last line", d, textFault())}
}

func escapeSequence(x *example) []draft {
	return perKey(x, "", "value followed by ESC[2J and a canary", false, func(d *kvDoc, i int) bool {
		d.lines[i].value += "\x1b[2J{{canary:ansi}}"
		return true
	})
}

func jsonBody(x *example) []draft {
	t := objNode()
	for _, l := range x.kv.lines {
		t.members = append(t.members, member{name: l.key, raw: quote(l.key), value: strNode(l.value)})
	}
	t.members = append(t.members, member{name: "note", raw: `"note"`, value: strNode("{{canary:json}}")})
	return []draft{treeDraft("", "", "the values as a JSON object", t, textFault())}
}

// Key_value forms of the shared operators.

func bomKV(x *example) []draft {
	b := append([]byte("\xef\xbb\xbf"), x.markedEarlyKV("").encode()...)
	return []draft{{note: "a UTF-8 byte order mark first", body: b, expect: textFault()}}
}

func invalidUTF8KV(x *example) []draft {
	var out []draft
	for _, b := range invalidBytes {
		out = append(out, perKey(x, b.tag, fmt.Sprintf("value ends in the bytes %q", b.bytes), false, func(d *kvDoc, i int) bool {
			d.lines[i].value += b.bytes
			return true
		})...)
	}
	return sortByField(out)
}

func truncateKV(x *example) []draft {
	body := x.markedEarlyKV("").encode()
	return truncated(x, body, len(body)-2, textFault()) // the final newline alone is no_final_newline's
}

func overByteLimitKV(x *example) []draft {
	d := x.kv.clone()
	d.lines = append(d.lines, kvLine{key: "padding", value: "{{canary:pad}}"})
	d.lines[len(d.lines)-1].value += strings.Repeat("x", paddingFor(x, d.encode()))
	return []draft{kvDraft("", "", fmt.Sprintf("a padding line, %d bytes in all", len(d.encode())), d, rejected(protocol.GateTransport, protocol.ReasonByteLimit))}
}

func wrongBoundKV(x *example) []draft {
	var out []draft
	for _, ptr := range sortedKeys(x.ver.Bind) {
		key := lastToken(ptr)
		i := x.kv.index(key)
		if i < 0 || strings.Contains(x.kv.lines[i].value, "{{") {
			continue
		}
		v := x.kv.lines[i].value
		for _, w := range wrongIDs(v, x.argumentJudge(x.ver.Bind[ptr])) {
			e, ok := x.valueVerdict(key, w[1])
			if !ok {
				continue
			}
			d := x.markedKV(key)
			d.lines[d.index(key)].value = w[1]
			out = append(out, kvDraft(key, w[0], fmt.Sprintf("%s=%s, the agent asked for %s", key, w[1], v), d, e))
		}
	}
	return out
}
