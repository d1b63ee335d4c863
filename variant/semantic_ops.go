package variant

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
)

// semanticOperators make answers the schema accepts and the request
// refuses: stale, future or malformed timestamps, ids of other resources,
// an error beside the data, a forged request id.
func semanticOperators() []operator {
	return []operator{
		{name: "stale_timestamp", describe: "every fresh timestamp set to {{stale}}, a minute before the freshness window, or to the Unix epoch (#epoch)", json: timestamp("stale", "{{stale}}", "1970-01-01T00:00:00Z")},
		{name: "future_timestamp", describe: "every fresh timestamp set to {{future}}, a minute past the allowed skew, or to the year 9999 (#far)", json: timestamp("future", "{{future}}", "9999-12-31T23:59:59Z")},
		{name: "timestamp_edge", describe: "every fresh timestamp set to a stale date-time in RFC 3339 syntax an adapter may refuse: lower-case t and z (#lowercase), the leap second of 2016 (#leap_second); stale, or bad_timestamp (docs/protocol.md)", json: timestampEdge},
		{name: "wrong_bound_id", describe: "every bound id changed: one character off (#near), a canary (#canary), case changed (#case), a trailing space (#padded), a Cyrillic look-alike letter (#homoglyph); a bound integer one off (#near) or negated (#negated), a bound boolean flipped (#flipped)", json: wrongBoundJSON, kv: wrongBoundKV},
		{name: "success_with_error", describe: `an "error": {"code": "UPSTREAM_UNAVAILABLE", "message": <canary>} member beside the data`, json: successWithError},
		{name: "forged_request_id", describe: `a top-level "request_id": "req.<canary>" added or replaced: accepted when the schema declares it (the adapter must not echo it)`, json: forgedRequestID},
	}
}

// timestamp returns an operator function that sets every fresh timestamp
// to value, then to extreme (tagged "epoch" or "far"), and expects the
// semantic reason.
func timestamp(reason, value, extreme string) func(*example) []draft {
	tag := map[string]string{"stale": "epoch", "future": "far"}[reason]
	return func(x *example) []draft {
		var out []draft
		for _, ptr := range x.ver.Fresh {
			for _, v := range [][2]string{{"", value}, {tag, extreme}} {
				if d, ok := semanticDraft(x, ptr, v[0], quote(v[1]), reason, ptr+" set to "+v[1]); ok {
					out = append(out, d)
				}
			}
		}
		return out
	}
}

// semanticDraft replaces the value at ptr by lit, expecting a semantic
// rejection for reason, or the schema's when the schema refuses lit.
func semanticDraft(x *example, ptr, tag, lit, reason, note string) (draft, bool) {
	if x.tree.at(ptr) == nil {
		return draft{}, false
	}
	e := semanticFault(reason)
	switch x.schema.at(ptr).judge(lit) {
	case unsure:
		return draft{}, false
	case refuses:
		e = schemaFault()
	}
	t := x.marked(ptr)
	t.set(ptr, litNode(lit))
	return treeDraft(ptr, tag, note, t, e), true
}

// timestampEdge sets every fresh timestamp to RFC 3339 date-times that
// some parsers refuse, each long past any freshness window: an adapter
// that reads them finds them stale, one that refuses them records
// bad_timestamp (the decision table's Also).
func timestampEdge(x *example) []draft {
	var out []draft
	for _, ptr := range x.ver.Fresh {
		for _, b := range []struct{ tag, value string }{{"lowercase", "1970-01-01t00:00:00z"}, {"leap_second", "2016-12-31T23:59:60Z"}} {
			if d, ok := semanticDraft(x, ptr, b.tag, quote(b.value), protocol.ReasonStale, ptr+" set to "+b.value); ok {
				out = append(out, d)
			}
		}
	}
	return out
}

// wrongIDs returns wrong_bound_id's replacements of the bound value v, by
// tag; argPattern tells whether a value looks valid for the argument.
func wrongIDs(v string, looksValid func(string) bool) [][2]string {
	var out [][2]string
	if near, ok := nearMiss(v); ok {
		out = append(out, [2]string{"near", near})
	}
	prefix := v[:strings.LastIndexFunc(v, func(r rune) bool { return !isAlnum(r) })+1]
	if c := prefix + "{{canary:bound}}"; looksValid(renderSample(c, true)) {
		out = append(out, [2]string{"canary", c})
	}
	if c := strings.ToUpper(v); c != v {
		out = append(out, [2]string{"case", c})
	} else if c := strings.ToLower(v); c != v {
		out = append(out, [2]string{"case", c})
	}
	out = append(out, [2]string{"padded", v + " "})
	if h, ok := homoglyph(v); ok {
		out = append(out, [2]string{"homoglyph", h})
	}
	return out
}

// lookAlikes maps Latin letters to the Cyrillic letters drawn the same.
var lookAlikes = map[rune]rune{
	'a': 'а', 'c': 'с', 'e': 'е', 'i': 'і', 'o': 'о', 'p': 'р', 'x': 'х', 'y': 'у',
	'A': 'А', 'B': 'В', 'C': 'С', 'E': 'Е', 'H': 'Н', 'K': 'К', 'M': 'М', 'O': 'О', 'P': 'Р', 'T': 'Т', 'X': 'Х',
}

// homoglyph replaces the first letter of v that has a Cyrillic look-alike.
func homoglyph(v string) (string, bool) {
	for i, r := range v {
		if c, ok := lookAlikes[r]; ok {
			return v[:i] + string(c) + v[i+len(string(r)):], true
		}
	}
	return "", false
}

// nearMiss changes the last letter or digit of v to the next one (9 to 0,
// z to a).
func nearMiss(v string) (string, bool) {
	b := []byte(v)
	for i := len(b) - 1; i >= 0; i-- {
		switch c := b[i]; {
		case c == '9':
			b[i] = '0'
		case c == 'z' || c == 'Z':
			b[i] = c - 25
		case c >= '0' && c <= '8', c >= 'a' && c <= 'y', c >= 'A' && c <= 'Y':
			b[i]++
		default:
			continue
		}
		return string(b), true
	}
	return "", false
}

// isAlnum reports whether r is an ASCII letter or digit.
func isAlnum(r rune) bool { return r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) }

// argumentJudge returns whether a value looks valid for the argument arg.
func (x *example) argumentJudge(arg string) func(string) bool {
	r, err := parseRule(x.tool.Arguments)
	if err != nil {
		return func(string) bool { return false }
	}
	ar := r.at("/" + judge.EscapePointerToken(arg))
	return func(v string) bool { return ar.judgeRendered(quote(v)) == accepts }
}

func wrongBoundJSON(x *example) []draft {
	var out []draft
	for _, ptr := range sortedKeys(x.ver.Bind) {
		n := x.tree.at(ptr)
		if n == nil {
			continue
		}
		if n.kind == '0' || n.kind == 't' || n.kind == 'f' {
			out = append(out, wrongBoundLiterals(x, ptr, n.lit)...)
			continue
		}
		v, ok := n.str()
		if !ok || strings.Contains(v, "{{") {
			continue
		}
		for _, w := range wrongIDs(v, x.argumentJudge(x.ver.Bind[ptr])) {
			note := fmt.Sprintf("%s is %q, the agent asked for %q", ptr, w[1], v)
			if d, ok := semanticDraft(x, ptr, w[0], quote(w[1]), protocol.ReasonBindingMismatch, note); ok {
				out = append(out, d)
			}
		}
	}
	return out
}

// wrongBoundLiterals drafts a bound integer or boolean, lit, changed: an
// integer one off (#near) or negated (#negated), a boolean flipped
// (#flipped). Binding compares JSON values (judge.Equal): each names
// another object.
func wrongBoundLiterals(x *example, ptr, lit string) []draft {
	var wrong [][2]string
	switch lit {
	case "true":
		wrong = append(wrong, [2]string{"flipped", "false"})
	case "false":
		wrong = append(wrong, [2]string{"flipped", "true"})
	default:
		if strings.ContainsAny(lit, ".eE") {
			return nil // a fraction binds no argument
		}
		if near, ok := nearMiss(lit); ok {
			wrong = append(wrong, [2]string{"near", near}) // its last digit one on: 1347 -> 1348, 9 -> 0
		}
		if lit != "0" && !strings.HasPrefix(lit, "-") {
			wrong = append(wrong, [2]string{"negated", "-" + lit})
		}
	}
	var out []draft
	for _, w := range wrong {
		note := fmt.Sprintf("%s is %s, the agent asked for %s", ptr, w[1], lit)
		if d, ok := semanticDraft(x, ptr, w[0], w[1], protocol.ReasonBindingMismatch, note); ok {
			out = append(out, d)
		}
	}
	return out
}

func successWithError(x *example) []draft {
	if x.tree.kind != '{' || x.schema.unknown || x.schema.allowsMember("error") {
		return nil
	}
	t := x.tree.clone()
	errObj := objNode("code", strNode(string(protocol.CodeUpstreamUnavailable)), "message", strNode("{{canary:error}}"))
	t.members = append(t.members, member{name: "error", raw: `"error"`, value: errObj})
	return []draft{treeDraft("", "", "an error member beside the data", t, schemaFault())}
}

func forgedRequestID(x *example) []draft {
	if x.tree.kind != '{' || x.schema.unknown {
		return nil
	}
	lit := quote("req.{{canary:forged}}")
	e := schemaFault()
	_, declared := x.schema.props["request_id"]
	switch v := x.schema.at("/request_id").judge(lit); {
	case !declared && !x.schema.closed, declared && v == accepts:
		e = x.accepted()
	case declared && v == unsure:
		return nil
	}
	t := x.tree.clone()
	note := "a top-level request_id added"
	if i := t.index("request_id"); i >= 0 {
		t.members[i].value = litNode(lit)
		note = "the top-level request_id replaced"
	} else {
		t.members = append(t.members, member{name: "request_id", raw: `"request_id"`, value: litNode(lit)})
	}
	return []draft{treeDraft("/request_id", "", note, t, e)}
}
