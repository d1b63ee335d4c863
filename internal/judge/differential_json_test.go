package judge_test

import (
	"fmt"
	"strings"
)

// jsonInput is one JSON document of the table, read with the default
// depth limit unless depth says otherwise.
type jsonInput struct {
	name  string
	in    string
	depth int
}

// jsonInputs returns the JSON documents of the table.
func jsonInputs() []jsonInput {
	var inputs []jsonInput
	for _, group := range [][]jsonInput{
		literalInputs(), numberInputs(), rangeInputs(), nonfiniteInputs(), stringInputs(),
		spaceInputs(), structureInputs(), encodingInputs(), surrogateInputs(),
		depthInputs(), duplicateInputs(), trailingInputs(),
	} {
		inputs = append(inputs, group...)
	}
	return inputs
}

// jsonProbes returns the JSON documents of the table (names "json/...").
func jsonProbes() []probe {
	inputs := jsonInputs()
	probes := make([]probe, len(inputs))
	for i, in := range inputs {
		probes[i] = jsonProbe("json/"+in.name, []byte(in.in), in.depth)
	}
	return probes
}

// jsonProbe parses raw with maxDepth (0: the default).
func jsonProbe(name string, raw []byte, maxDepth int) probe {
	return probe{name: name, run: func(m *impl) any { return m.verdictOf(m.parseJSON(raw, maxDepth)) }}
}

// literalInputs returns every literal, misspelt and cut.
func literalInputs() []jsonInput {
	return []jsonInput{
		{"literal/true", "true", 0}, {"literal/false", "false", 0}, {"literal/null", "null", 0},
		{"literal/padded", " \ttrue\r\n", 0}, {"literal/all-in-array", "[true,false,null]", 0},
		{"literal/tru", "tru", 0}, {"literal/fals", "fals", 0}, {"literal/nul", "nul", 0}, {"literal/t", "t", 0},
		{"literal/True", "True", 0}, {"literal/NULL", "NULL", 0}, {"literal/nulll", "nulll", 0},
		{"literal/truex", "truex", 0}, {"literal/tx", "tx", 0}, {"literal/in-array-cut", "[tru", 0},
		{"literal/bad-in-array", "[trux]", 0}, {"literal/undefined", "undefined", 0}, {"literal/none", "None", 0},
	}
}

// numberInputs returns the number grammar of RFC 8259, section 6, and its edges.
func numberInputs() []jsonInput {
	return []jsonInput{
		{"number/0", "0", 0}, {"number/-0", "-0", 0}, {"number/0.0", "0.0", 0}, {"number/-0.0", "-0.0", 0},
		{"number/1e5", "1e5", 0}, {"number/1E+5", "1E+5", 0}, {"number/1e-5", "1e-5", 0}, {"number/1.5e+10", "1.5e+10", 0},
		{"number/big-integer", "123456789012345678901234567890", 0}, {"number/in-array", "[1,-2,3.25,4e2]", 0},
		{"number/leading-zero", "01", 0}, {"number/leading-zero-in-array", "[01]", 0}, {"number/minus-leading-zero", "[-01]", 0},
		{"number/00", "00", 0}, {"number/lone-minus", "-", 0}, {"number/lone-minus-in-array", "[-]", 0},
		{"number/minus-letter", "-a", 0}, {"number/trailing-dot", "1.", 0}, {"number/trailing-dot-in-array", "[1.]", 0},
		{"number/leading-dot", ".5", 0}, {"number/plus", "+1", 0}, {"number/plus-in-array", "[+1]", 0},
		{"number/hex", "0x10", 0}, {"number/hex-in-array", "[0x10]", 0}, {"number/dot-exponent", "1.e5", 0},
		{"number/bare-exponent", "1e", 0}, {"number/exponent-sign-only", "1e+", 0}, {"number/exponent-cut-in-array", "[1e", 0},
		{"number/exponent-bad-in-array", "[1e]", 0}, {"number/double-minus", "[--1]", 0}, {"number/two-dots", "[1.2.3]", 0},
		{"number/comma-decimal", "[1,5]", 0}, {"number/space-inside", "[1 5]", 0}, {"number/octal-like", "[007]", 0},
		{"number/underscore", "[1_000]", 0}, {"number/fullwidth-digit", "[\uff11]", 0},
	}
}

// rangeInputs returns numbers around the ends of the float64 range.
func rangeInputs() []jsonInput {
	const threshold = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792"
	return []jsonInput{
		{"range/1e308", "1e308", 0}, {"range/1e309", "1e309", 0}, {"range/-1e400", "-1e400", 0}, {"range/1e400", "1e400", 0},
		{"range/4.9e-324", "4.9e-324", 0}, {"range/1e-400", "1e-400", 0}, {"range/2e-324", "2e-324", 0},
		{"range/max-float64", "1.7976931348623157e308", 0}, {"range/rounds-to-max", "1.7976931348623158e308", 0},
		{"range/rounds-to-inf", "1.7976931348623159e308", 0}, {"range/-rounds-to-inf", "-1.7976931348623159e308", 0},
		{"range/halfway-integer", threshold, 0}, {"range/below-halfway-integer", threshold[:len(threshold)-1] + "1", 0},
		{"range/halfway-fraction", "0." + threshold + "e309", 0}, {"range/halfway-scaled", "0.00" + threshold + "e311", 0},
		{"range/below-halfway-long", "1.79769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791999999e308", 0},
		{"range/zero-huge-exponent", "0.000e99999999999999999999", 0}, {"range/huge-exponent", "1e99999999999999999999", 0},
		{"range/tiny-exponent", "1e-99999999999999999999", 0}, {"range/many-digits-small", "0." + strings.Repeat("0", 400) + "1e400", 0},
		{"range/long-integer-309-digits", "1" + strings.Repeat("0", 308), 0}, {"range/long-integer-310-digits", "1" + strings.Repeat("0", 309), 0},
		{"range/in-object", `{"a":1e400}`, 0}, {"range/before-trailing", "1e400x", 0}, {"range/cut-document", "[1e400", 0},
		{"range/before-syntax", "[1e400 x]", 0}, {"range/after-syntax", "[x, 1e400]", 0}, {"range/as-name", `{1e400:1}`, 0},
	}
}

// nonfiniteInputs returns NaN and Infinity, where values and delimiters go.
func nonfiniteInputs() []jsonInput {
	return []jsonInput{
		{"nonfinite/NaN", "NaN", 0}, {"nonfinite/-NaN", "-NaN", 0}, {"nonfinite/+NaN", "+NaN", 0},
		{"nonfinite/Infinity", "Infinity", 0}, {"nonfinite/-Infinity", "-Infinity", 0}, {"nonfinite/+Infinity", "+Infinity", 0},
		{"nonfinite/in-array", "[NaN]", 0}, {"nonfinite/-Infinity-in-array", "[-Infinity]", 0}, {"nonfinite/in-object", `{"a":Infinity}`, 0},
		{"nonfinite/after-element", "[1 NaN]", 0}, {"nonfinite/minus-after-element", "[1-NaN]", 0}, {"nonfinite/plus-after-element", "[1+Infinity]", 0},
		{"nonfinite/plus-nan-after-element", "[1+NaN]", 0}, {"nonfinite/after-comma", "[1,NaN]", 0}, {"nonfinite/as-name", "{NaN:1}", 0},
		{"nonfinite/minus-infinity-as-name", "{-Infinity:1}", 0}, {"nonfinite/after-name", `{"a" NaN}`, 0},
		{"nonfinite/lowercase", "nan", 0}, {"nonfinite/lowercase-infinity", "infinity", 0}, {"nonfinite/Inf", "Inf", 0},
		{"nonfinite/-Inf", "-Inf", 0}, {"nonfinite/in-literal", "[tNaN]", 0}, {"nonfinite/after-dot", "[1.NaN]", 0},
		{"nonfinite/double-sign", "[-+Infinity]", 0}, {"nonfinite/NaNx", "NaNx", 0}, {"nonfinite/Infinityx", "Infinityx", 0},
		{"nonfinite/quoted", `"NaN"`, 0}, {"nonfinite/after-colon-delim", `{"a":1:NaN}`, 0},
	}
}

// stringInputs returns every escape, raw control characters and long strings.
func stringInputs() []jsonInput {
	return []jsonInput{
		{"string/every-escape", `"\"\\\/\b\f\n\r\t"`, 0}, {"string/u-escapes", `"\u0041\u00e9\u00E9\u20AC\uffff"`, 0},
		{"string/u-nul", `"\u0000"`, 0}, {"string/empty", `""`, 0}, {"string/utf8", "\"h\u00e9llo \u20ac \U0001F600\"", 0},
		{"string/escape-x", `"\x"`, 0}, {"string/escape-a", `"\a"`, 0}, {"string/escape-U", `"\U0041"`, 0},
		{"string/escape-apostrophe", `"\'"`, 0}, {"string/escape-bad-hex", `"\u00G0"`, 0}, {"string/escape-short", `"\u12"`, 0},
		{"string/escape-short-cut", `"\u12`, 0}, {"string/escape-u-alone", `"\u"`, 0}, {"string/escape-cut", `"\`, 0},
		{"string/escape-non-ascii", "\"\\\u00e9\"", 0}, {"string/escape-invalid-byte", "\"\\\xff\"", 0},
		{"string/escape-short-invalid-byte", "\"\\u12\xff\"", 0},
		{"string/raw-nul", "\"a\x00b\"", 0}, {"string/raw-0x01", "\"\x01\"", 0}, {"string/raw-0x1f", "\"\x1f\"", 0},
		{"string/raw-tab", "\"a\tb\"", 0}, {"string/raw-newline", "\"a\nb\"", 0}, {"string/raw-cr", "\"a\rb\"", 0},
		{"string/raw-del", "\"a\x7fb\"", 0}, {"string/raw-c1", "\"a\u0085b\"", 0}, {"string/raw-line-separator", "\"a\u2028b\"", 0},
		{"string/raw-bom", "\"\ufeff\"", 0}, {"string/replacement-char", "\"\ufffd\"", 0},
		{"string/long", `"` + strings.Repeat("a", 100_000) + `"`, 0},
		{"string/long-escapes", `"` + strings.Repeat(`\u00e9\n`, 10_000) + `"`, 0},
		{"string/unterminated", `"abc`, 0}, {"string/quote-only", `"`, 0}, {"string/single-quotes", `'a'`, 0},
		{"string/control-before-bad-utf8", "\"\x01\xff\"", 0}, {"string/bad-utf8-before-control", "\"\xff\x01\"", 0},
	}
}

// spaceInputs returns the four kinds of JSON white space, others, and top-level scalars.
func spaceInputs() []jsonInput {
	return []jsonInput{
		{"space/empty", "", 0}, {"space/only-spaces", "   ", 0}, {"space/only-newline", "\n", 0}, {"space/all-four", " \t\r\n", 0},
		{"space/around", " \t\r\n1 \t\r\n", 0}, {"space/form-feed", "\f1", 0}, {"space/vertical-tab", "\v1", 0},
		{"space/nbsp-before", "\u00a01", 0}, {"space/nbsp-after", "1\u00a0", 0}, {"space/line-separator", "\u20281", 0},
		{"space/nul-before", "\x001", 0}, {"space/form-feed-inside", "[1,\f2]", 0}, {"space/nbsp-inside", "[1,\u00a02]", 0},
		{"space/ideographic", "\u30001", 0}, {"space/inside-everything", "{ \"a\" : [ 1 , 2 ] , \"b\" : { } }", 0},
		{"scalar/string", `"a"`, 0}, {"scalar/number", "1", 0}, {"scalar/true", "true", 0}, {"scalar/null", "null", 0},
	}
}

// structureInputs returns arrays and objects, whole, broken and cut.
func structureInputs() []jsonInput {
	return []jsonInput{
		{"structure/empty-array", "[]", 0}, {"structure/empty-object", "{}", 0}, {"structure/nested", `[[],{},[{}],{"a":{"b":[]}}]`, 0},
		{"structure/trailing-comma-array", "[1,]", 0}, {"structure/trailing-comma-object", `{"a":1,}`, 0},
		{"structure/leading-comma", "[,1]", 0}, {"structure/double-comma", "[1,,2]", 0}, {"structure/object-comma", "{,}", 0},
		{"structure/name-only", `{"a"}`, 0}, {"structure/no-value", `{"a":}`, 0}, {"structure/no-colon", `{"a" 1}`, 0},
		{"structure/comma-for-colon", `{"a",1}`, 0}, {"structure/colon-for-comma", `{"a":1:2}`, 0}, {"structure/colon-in-array", "[1:2]", 0},
		{"structure/double-colon", `{"a"::1}`, 0}, {"structure/missing-comma", "[1 2]", 0}, {"structure/missing-member-comma", `{"a":1 "b":2}`, 0},
		{"structure/number-name", "{1:1}", 0}, {"structure/true-name", "{true:1}", 0}, {"structure/null-name", "{null:1}", 0},
		{"structure/array-name", "{[]:1}", 0}, {"structure/object-name", "{{}:1}", 0}, {"structure/single-quoted-name", "{'a':1}", 0},
		{"structure/bare-name", "{a:1}", 0}, {"structure/mismatched-close-array", "[1}", 0}, {"structure/mismatched-close-object", `{"a":1]`, 0},
		{"structure/close-array", "]", 0}, {"structure/close-object", "}", 0}, {"structure/comma", ",", 0}, {"structure/colon", ":", 0},
		{"structure/open-array", "[", 0}, {"structure/open-object", "{", 0}, {"structure/cut-name-literal", "{tru", 0},
		{"structure/cut-name-minus", "{-", 0}, {"structure/cut-name-number", "{1", 0}, {"structure/cut-name-true", "{true", 0},
		{"structure/cut-after-comma-literal", `{"a":1,tru`, 0}, {"structure/comma-then-cut", "{,", 0}, {"structure/name-comma-cut", `{"a",`, 0},
		{"structure/cut-after-colon", `{"a":`, 0}, {"structure/cut-after-comma", `{"a":1,`, 0}, {"structure/cut-array-comma", "[1,", 0},
		{"structure/array-colon-cut", "[1:", 0}, {"structure/array-comma-close", "[1,}", 0}, {"structure/array-space-close-object", "[1 }", 0},
		{"structure/comment", "[1 /* c */]", 0}, {"structure/line-comment", "[1 // c\n]", 0}, {"structure/escape-outside", `[\u0041]`, 0},
	}
}

// encodingInputs returns byte order marks, UTF-16 and every kind of invalid UTF-8.
func encodingInputs() []jsonInput {
	return []jsonInput{
		{"encoding/bom", "\xef\xbb\xbf{}", 0}, {"encoding/bom-only", "\xef\xbb\xbf", 0}, {"encoding/partial-bom", "\xef\xbb{}", 0},
		{"encoding/bom-after-space", " \xef\xbb\xbf{}", 0}, {"encoding/bom-in-string", "\"\xef\xbb\xbf\"", 0},
		{"encoding/bom-then-bad", "\xef\xbb\xbf\xff", 0},
		{"encoding/utf16be-bom", "\xfe\xff\x00{\x00}", 0}, {"encoding/utf16le-bom", "\xff\xfe{\x00}\x00", 0},
		{"encoding/utf16le", "{\x00}\x00", 0}, {"encoding/utf16be-string", "\x00\"\x00a\x00\"", 0},
		{"encoding/utf16-in-string", "\"a\x00b\x00\"", 0},
		{"encoding/overlong-slash", "\"\xc0\xaf\"", 0}, {"encoding/overlong-3", "\"\xe0\x80\xaf\"", 0}, {"encoding/overlong-4", "\"\xf0\x80\x80\xaf\"", 0},
		{"encoding/overlong-nul", "\"\xc0\x80\"", 0}, {"encoding/bad-continuation-2", "\"\xc3\x28\"", 0}, {"encoding/bad-continuation-3", "\"\xe2\x28\xa1\"", 0},
		{"encoding/bad-continuation-3b", "\"\xe2\x82\x28\"", 0}, {"encoding/bad-continuation-4", "\"\xf0\x90\x28\xbc\"", 0},
		{"encoding/lone-continuation", "\"\x80\"", 0}, {"encoding/ff-in-string", "\"a\xffb\"", 0}, {"encoding/ff-outside", "\xff", 0},
		{"encoding/ff-in-array", "[\xff]", 0}, {"encoding/ff-after-element", "[1\xff]", 0}, {"encoding/ff-in-number", "[-\xff]", 0},
		{"encoding/ff-in-literal", "[tru\xff]", 0}, {"encoding/ff-in-name", "{\"a\xff\":1}", 0}, {"encoding/ff-as-name", "{\xff:1}", 0},
		{"encoding/fe", "\"\xfe\"", 0}, {"encoding/f5", "\"\xf5\x80\x80\x80\"", 0}, {"encoding/beyond-10ffff", "\"\xf4\x90\x80\x80\"", 0},
		{"encoding/max-10ffff", "\"\xf4\x8f\xbf\xbf\"", 0}, {"encoding/surrogate-bytes", "\"\xed\xa0\x80\"", 0},
		{"encoding/low-surrogate-bytes", "\"\xed\xbf\xbf\"", 0}, {"encoding/surrogate-pair-bytes", "\"\xed\xa0\xbd\xed\xb8\x80\"", 0},
		{"encoding/surrogate-bytes-outside", "[\xed\xa0\x80]", 0}, {"encoding/cut-sequence", "\"\xe2\x82", 0}, {"encoding/cut-lead", "\"\xe2", 0},
		{"encoding/cut-4", "\"\xf0\x9f\x98", 0}, {"encoding/closed-cut-sequence", "\"\xe2\x82\"", 0}, {"encoding/cut-invalid-second", "\"\xed\xa0", 0},
		{"encoding/cut-c0", "\"\xc0", 0}, {"encoding/cut-f4-90", "\"\xf4\x90", 0}, {"encoding/valid-then-cut-outside", "[\xe2\x82", 0},
		{"encoding/nbsp-outside", "[\xc2\xa0]", 0}, {"encoding/bad-after-good", "[\"\u00e9\", \"\xff\"]", 0},
		{"encoding/two-bad", "[\"\xff\" \"\xff\"]", 0}, {"encoding/bad-name-after-dup", "{\"a\":1,\"a\xff\":2}", 0},
	}
}

// surrogateInputs returns escaped surrogates, paired, lone, broken and cut.
func surrogateInputs() []jsonInput {
	return []jsonInput{
		{"surrogate/pair", `"\ud83d\ude00"`, 0}, {"surrogate/pair-upper", `"\uD83D\uDE00"`, 0}, {"surrogate/pair-max", `"\uDBFF\uDFFF"`, 0},
		{"surrogate/pair-min", `"\uD800\uDC00"`, 0}, {"surrogate/lone-high", `"\uD800"`, 0}, {"surrogate/lone-low", `"\uDC00"`, 0},
		{"surrogate/high-high", `"\uD800\uD800"`, 0}, {"surrogate/low-high", `"\uDC00\uD800"`, 0}, {"surrogate/low-low", `"\uDC00\uDC00"`, 0},
		{"surrogate/high-then-char", `"\uD800a"`, 0}, {"surrogate/high-then-newline-escape", `"\uD800\n"`, 0},
		{"surrogate/high-then-A", `"\uD800\u0041"`, 0}, {"surrogate/high-then-DBFF", `"\uD800\uDBFF"`, 0},
		{"surrogate/high-then-bad-escape", `"\uD800\u00"`, 0}, {"surrogate/high-then-text", `"\uD800 more text"`, 0},
		{"surrogate/high-cut", `"\uD800`, 0}, {"surrogate/high-cut-backslash", `"\uD800\`, 0}, {"surrogate/high-cut-u", `"\uD800\u`, 0},
		{"surrogate/high-cut-D", `"\uD800\uD`, 0}, {"surrogate/high-cut-DC", `"\uD800\uDC`, 0}, {"surrogate/high-cut-DC0", `"\uD800\uDC0`, 0},
		{"surrogate/high-cut-0", `"\uD800\u0`, 0}, {"surrogate/high-cut-D8", `"\uD800\uD8`, 0}, {"surrogate/high-cut-x", `"\uD800x`, 0},
		{"surrogate/low-cut", `"\uDC00`, 0}, {"surrogate/low-cut-pair-start", `"\uDC00\uDC`, 0}, {"surrogate/in-name", `{"\uD800":1}`, 0},
		{"surrogate/in-value", `{"a":"\uD800"}`, 0}, {"surrogate/then-trailing-comma", `{"a":"\uD800",}`, 0},
		{"surrogate/bad-hex-six-left", `["\uD8"]`, 0}, {"surrogate/bad-hex-five-left", `"\uD8"`, 0}, {"surrogate/bad-hex-zz", `"\uD8zz"`, 0},
		{"surrogate/bad-hex-lower", `"\ud8zz"`, 0}, {"surrogate/bad-hex-Dz", `"\uDz00"`, 0}, {"surrogate/bad-hex-D7", `"\uD7zz"`, 0},
		{"surrogate/escape-outside-string", `[\uD800]`, 0}, {"surrogate/escape-outside-short", `\uD800`, 0}, {"surrogate/escape-outside-cut", `[\uD8`, 0},
		{"surrogate/pair-then-lone", `"\uD83D\uDE00\uD800"`, 0}, {"surrogate/lone-then-bad-utf8", "\"\\uD800\xff\"", 0},
	}
}

// depthInputs returns documents at, past and far past the depth limits.
func depthInputs() []jsonInput {
	arrays := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	objects := func(n int) string { return strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) }
	mixed := func(n int) string {
		var open, close strings.Builder
		for i := range n {
			if i%2 == 0 {
				open.WriteString(`[`)
				close.WriteString(`]`)
			} else {
				open.WriteString(`{"k":`)
				close.WriteString(`}`)
			}
		}
		c := []byte(close.String())
		for i, j := 0, len(c)-1; i < j; i, j = i+1, j-1 {
			c[i], c[j] = c[j], c[i]
		}
		return open.String() + "0" + string(c)
	}
	return []jsonInput{
		{"depth/arrays-32", arrays(32), 0}, {"depth/arrays-33", arrays(33), 0}, {"depth/objects-32", objects(32), 0},
		{"depth/objects-33", objects(33), 0}, {"depth/mixed-32", mixed(32), 0}, {"depth/mixed-33", mixed(33), 0},
		{"depth/arrays-32-cut", strings.Repeat("[", 32), 0}, {"depth/arrays-33-cut", strings.Repeat("[", 33), 0},
		{"depth/arrays-100000", arrays(100_000), 0}, {"depth/open-100000", strings.Repeat("[", 100_000), 0},
		{"depth/limit-1-flat", "[]", 1}, {"depth/limit-1-nested", "[[]]", 1}, {"depth/limit-1-scalar", "1", 1},
		{"depth/limit-1-object-in-array", `[{}]`, 1}, {"depth/negative-limit-default", arrays(33), -5},
		{"depth/limit-10000-at", arrays(10_000), 10_000}, {"depth/limit-10000-past", arrays(10_001), 10_000},
		{"depth/limit-20000-past-decoder-cap", arrays(10_001), 20_000}, {"depth/limit-200000-100000", arrays(100_000), 200_000},
		{"depth/fault-after-limit", strings.Repeat("[", 33) + "NaN", 0}, {"depth/fault-before-limit", "[NaN," + arrays(40) + "]", 0},
		{"depth/siblings-at-limit", "[" + arrays(31) + "," + arrays(31) + "]", 0}, {"depth/cut-at-limit", strings.Repeat(`{"a":`, 32), 0},
	}
}

// duplicateInputs returns member names repeated, plainly or escaped, and names that only look alike.
func duplicateInputs() []jsonInput {
	return []jsonInput{
		{"duplicate/plain", `{"a":1,"a":2}`, 0}, {"duplicate/escaped-equivalent", `{"a":1,"\u0061":2}`, 0},
		{"duplicate/escaped-first", `{"\u0061":1,"a":2}`, 0}, {"duplicate/solidus-escaped", `{"\/":1,"/":2}`, 0},
		{"duplicate/nul-suffix-differs", `{"a\u0000":1,"a":2}`, 0}, {"duplicate/e-acute", "{\"\u00e9\":1,\"\\u00e9\":2}", 0},
		{"duplicate/case-differs", `{"A":1,"a":2}`, 0}, {"duplicate/nested-own-sets", `{"a":{"a":1},"b":{"a":2}}`, 0},
		{"duplicate/siblings", `[{"a":1},{"a":2}]`, 0}, {"duplicate/nested", `{"a":{"b":1,"b":2}}`, 0},
		{"duplicate/outer-after-inner", `{"a":{"b":1},"a":2}`, 0}, {"duplicate/before-colon", `{"a":1,"a"`, 0},
		{"duplicate/cut-name", `{"a":1,"a`, 0}, {"duplicate/empty-name", `{"":1,"":2}`, 0},
		{"duplicate/escaped-pair", "{\"\\ud83d\\ude00\":1,\"\U0001F600\":2}", 0}, {"duplicate/then-nan", `{"a":1,"a":NaN}`, 0},
		{"duplicate/nan-first", `{"a":NaN,"a":1}`, 0}, {"duplicate/three", `{"a":1,"b":2,"a":3}`, 0},
		{"duplicate/fullwidth-not-equal", "{\"a\":1,\"\uff41\":2}", 0}, {"duplicate/deep-in-array", `[[{"x":1,"x":1}]]`, 0},
		{"duplicate/escape-tab", `{"\t":1,"\u0009":2}`, 0},
	}
}

// trailingInputs returns documents followed by something else.
func trailingInputs() []jsonInput {
	return []jsonInput{
		{"trailing/second-value", "{} {}", 0}, {"trailing/second-number", "1 2", 0}, {"trailing/letter", "[]x", 0},
		{"trailing/comment", "{}//c", 0}, {"trailing/block-comment", "{}/*c*/", 0}, {"trailing/nul", "{}\x00", 0},
		{"trailing/nul-after-number", "1\x00", 0}, {"trailing/comma", "{},", 0}, {"trailing/close-array", "[]]", 0},
		{"trailing/close-object", "{}}", 0}, {"trailing/second-string", `"a""b"`, 0}, {"trailing/newline", "{}\n", 0},
		{"trailing/all-space", "{} \t\r\n", 0}, {"trailing/ff", "{}\xff", 0}, {"trailing/bom", "{}\xef\xbb\xbf", 0},
		{"trailing/number-letter", "1x", 0}, {"trailing/number-dot-number", "0.0.0", 0}, {"trailing/nan", "1 NaN", 0},
		{"trailing/form-feed", "{}\f", 0}, {"trailing/cut-second", "{} [", 0},
	}
}

// truncationProbes cuts a few documents at every byte offset (names
// "truncate/<document>/<offset>").
func truncationProbes() []probe {
	docs := []struct{ name, doc string }{
		{"rich", `{"id":"CR-1042","n":[-1.5e+3,0,true,false,null],"s":"\u00e9\ud83d\ude00\\\"","o":{"deep":[[{}]]},"u":"€😀"}`},
		{"answer", `{"change_id": "CR-1042", "decision": "approved", "reviewed_by": "alice", "updated_at": "2026-11-29T16:00:00Z"}`},
		{"numbers", `[0,-0.5,1E+10,2e-3,12345678901234567890]`},
		{"escapes", `"\"\\\/\b\f\n\r\t\u00E9\uD834\uDD1E x"`},
	}
	var probes []probe
	for _, d := range docs {
		for i := range len(d.doc) {
			probes = append(probes, jsonProbe(fmt.Sprintf("truncate/%s/%d", d.name, i), []byte(d.doc[:i]), 0))
		}
	}
	return probes
}
