package openapi

// draftFormats are the formats Draft 2020-12 defines; they are kept.
var draftFormats = wordSet("date-time", "date", "time", "duration", "email", "idn-email", "hostname",
	"idn-hostname", "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template",
	"json-pointer", "relative-json-pointer", "regex")

// integerRanges are the bounds an OpenAPI integer format stands for.
var integerRanges = map[string][2]string{
	"int32": {"-2147483648", "2147483647"},
	"int64": {"-9223372036854775808", "9223372036854775807"},
}

// applyFormat writes format. Draft 2020-12 formats stay; int32 and int64
// become the bounds of their range (a stricter bound written in the schema
// stays); float and double say nothing JSON Schema checks and go; byte
// becomes contentEncoding base64. Any other format (binary, password, a
// vendor's) is dropped with a Note rather than kept: the validator asserts
// formats and ignores one it does not know, but it knows two that Draft
// 2020-12 does not define (semver, period) and would assert them, and a
// validator following the format-assertion vocabulary may refuse an
// unknown one; dropping keeps the schema meaning the same everywhere.
func (k *keywords) applyFormat() {
	if k.format == nil {
		return
	}
	p := *k.format
	f, ok := scalar(p.val)
	switch {
	case !ok:
		k.note(p, "format is not a string: dropped")
	case draftFormats[f]:
		k.out.set("format", f)
	case integerRanges[f] != [2]string{}:
		r := integerRanges[f]
		k.lowerBound(r[0])
		k.upperBound(r[1])
	case f == "float" || f == "double":
	case f == "byte":
		if !k.out.has("contentEncoding") {
			k.out.set("contentEncoding", "base64")
		}
		k.note(p, "format byte is written as contentEncoding base64, an annotation the validator does not check")
	default:
		k.note(p, "format %q is not a Draft 2020-12 format: dropped", f)
	}
}

// lowerBound sets minimum to lo unless the schema already has a bound at
// least as strict.
func (k *keywords) lowerBound(lo string) {
	for _, key := range []string{"minimum", "exclusiveMinimum"} {
		if c, ok := compareNumbers(k.out, key, lo); ok && c >= 0 {
			return
		}
	}
	k.out.set("minimum", number(lo))
}

// upperBound sets maximum to hi unless the schema already has a bound at
// least as strict.
func (k *keywords) upperBound(hi string) {
	for _, key := range []string{"maximum", "exclusiveMaximum"} {
		if c, ok := compareNumbers(k.out, key, hi); ok && c <= 0 {
			return
		}
	}
	k.out.set("maximum", number(hi))
}

// compareNumbers compares the number at key of o with literal lit,
// exactly; false when o has no such number.
func compareNumbers(o *object, key, lit string) (int, bool) {
	v, _ := o.get(key)
	n, ok := v.(number)
	if !ok {
		return 0, false
	}
	a, okA := ratOf(string(n))
	b, okB := ratOf(lit)
	if !okA || !okB {
		return 0, false
	}
	return a.Cmp(b), true
}
