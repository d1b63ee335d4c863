package protocol

// Verdict is what a gate decides about an upstream answer: the gate that
// refused it and why, or GateNone and ReasonOK for an answer accepted.
type Verdict struct {
	Gate   Gate
	Reason string
}

// String returns "gate: reason".
func (v Verdict) String() string { return string(v.Gate) + ": " + v.Reason }

// Formats of a tool's upstream answer a Class may be limited to.
const (
	// FormatJSON is one strict JSON document.
	FormatJSON = "json"
	// FormatKeyValue is ordered key=value lines (a text tool).
	FormatKeyValue = "key_value"
)

// Class is one row of the decision table of docs/protocol.md: a class of
// upstream answer, the verdicts a correct adapter reaches for it, and the
// verdicts it may reach instead.
type Class struct {
	// Name is the class: the name of the generator's operator that makes
	// such answers (toolcert's variant package), or its own name for an
	// answer the scenarios write by hand.
	Name string
	// Format limits the row to tools of that format; "" is every format.
	Format string
	// Input says what the answer is, for a person.
	Input string
	// Verdicts are the class's verdicts. Which one applies depends on the
	// answer (the first gate that refuses it), as Input says.
	Verdicts []Verdict
	// Also are verdicts docs/protocol.md allows instead of any of
	// Verdicts: where the protocol leaves the gate or reason to the
	// adapter, the harness accepts each.
	Also []Verdict
	// Kind is what the class's generated answers are to the agent (see
	// [Kind]); Otherwise is the kind of those OtherwiseWhen describes, for
	// a person ("" when every answer of the class is of Kind). Whatever
	// the class, an ignorable change of a bound or fresh member's value is
	// must-refuse ([Class.KindOf]).
	Kind          Kind
	Otherwise     Kind
	OtherwiseWhen string
}

// Allows reports whether v is one of c's verdicts or one it allows
// instead.
func (c Class) Allows(v Verdict) bool {
	for _, x := range append(c.Verdicts[:len(c.Verdicts):len(c.Verdicts)], c.Also...) {
		if x == v {
			return true
		}
	}
	return false
}

// ClassOf returns the row of the decision table for class name on a tool
// of format, and false when there is none.
func ClassOf(name, format string) (Class, bool) {
	for _, c := range classes {
		if c.Name == name && (c.Format == "" || c.Format == format) {
			return c, true
		}
	}
	return Class{}, false
}

func v(g Gate, reason string) Verdict { return Verdict{Gate: g, Reason: reason} }

// classes is the decision table, built once for ClassOf: the generator
// asks it for every variant. It is never modified; ClassOf's Class shares
// its Verdicts and Also with it, to be read only.
var classes = DecisionTable()

var (
	accepted   = v(GateNone, ReasonOK)
	schemaFail = v(GateSchema, ReasonSchemaViolation)
	textFail   = v(GateParse, ReasonTextFormat)
)

// DecisionTable returns the decision table of docs/protocol.md, row by
// row, in its order: transport, parse (JSON), parse (text tools), schema,
// semantic, and the answers a correct adapter accepts.
func DecisionTable() []Class {
	var t []Class
	for _, part := range []struct {
		classes []Class
		kind    Kind
	}{
		{transportClasses(), KindMustRefuse}, {jsonParseClasses(), KindIgnorable}, {textClasses(), KindIgnorable},
		{schemaClasses(), KindIgnorable}, {semanticClasses(), KindMustRefuse}, {acceptedClasses(), KindEquivalent},
	} {
		for _, c := range part.classes {
			if c.Kind == "" {
				c.Kind = part.kind
			}
			t = append(t, c)
		}
	}
	return t
}

// The exceptions of the kind column, written once for the classes that
// share them.
const (
	atRoot     = "the whole answer replaced (at the root): not the object at all"
	sameValue  = "the repeat has the same value (#same): not ambiguous"
	valuesDiff = "the repeated key has another value: ambiguous"
)

func transportClasses() []Class {
	return []Class{
		{Name: "upstream_5xx", Input: "a 5xx status on every attempt", Verdicts: []Verdict{v(GateTransport, ReasonStatus5xx)}},
		{Name: "upstream_status", Input: "another status than 200 or 5xx: 404, 429, another 4xx, or 1xx, 2xx, 3xx", Verdicts: []Verdict{
			v(GateTransport, ReasonStatus404), v(GateTransport, ReasonStatus429), v(GateTransport, ReasonStatus4xx), v(GateTransport, ReasonUnexpectedStatus)}},
		{Name: "connection", Input: "a connection refused, reset or closed before a whole answer", Verdicts: []Verdict{v(GateTransport, ReasonConnection)}},
		{Name: "timeout", Input: "a silence past the read timeout, before the headers or inside the body", Verdicts: []Verdict{v(GateTransport, ReasonTimeout)}},
		{Name: "deadline", Input: "an attempt still running when the time budget is spent", Verdicts: []Verdict{v(GateTransport, ReasonDeadline)}},
		{Name: "over_byte_limit", Input: "a body past the byte limit", Verdicts: []Verdict{v(GateTransport, ReasonByteLimit)}},
		{Name: "unsupported_version", Input: "an X-Api-Version the adapter does not support for the tool, repeated, or empty", Verdicts: []Verdict{v(GateSchema, ReasonUnsupportedVersion)},
			Kind: KindIgnorable},
		{Name: "content_type", Input: "a Content-Type that is not the tool's, or with a parameter other than charset=utf-8 (the tool's type with charset=utf-8 is accepted)", Verdicts: []Verdict{
			v(GateParse, ReasonContentType), accepted}, Kind: KindIgnorable, Otherwise: KindEquivalent, OtherwiseWhen: "the tool's type with charset=utf-8 (#charset)"},
	}
}

func jsonParseClasses() []Class {
	syntax := []Verdict{v(GateParse, ReasonSyntax)}
	return jsonOnly([]Class{
		{Name: "bom", Format: FormatJSON, Input: "a UTF-8 byte order mark before the document", Verdicts: []Verdict{v(GateParse, ReasonBOM)}},
		{Name: "invalid_utf8", Format: FormatJSON, Input: "bytes that are not UTF-8", Verdicts: []Verdict{v(GateParse, ReasonInvalidUTF8)}},
		{Name: "lone_surrogate", Input: "a \\u escape of a lone surrogate", Verdicts: []Verdict{v(GateParse, ReasonInvalidSurrogate)}},
		{Name: "control_char", Input: "a raw control character inside a string", Verdicts: syntax},
		{Name: "nan", Input: "NaN for a number", Verdicts: []Verdict{v(GateParse, ReasonNonfinite)}},
		{Name: "infinity", Input: "Infinity or -Infinity for a number", Verdicts: []Verdict{v(GateParse, ReasonNonfinite)}},
		{Name: "huge_number", Input: "a number beyond float64 (1e400)", Verdicts: []Verdict{v(GateParse, ReasonNonfinite)}},
		{Name: "truncate", Format: FormatJSON, Input: "the document cut short (an empty body too)", Verdicts: []Verdict{v(GateParse, ReasonTruncated)}},
		{Name: "trailing_data", Input: "a second document or other bytes after the document", Verdicts: []Verdict{v(GateParse, ReasonTrailingData)}},
		{Name: "comment", Input: "a // or /* */ comment", Verdicts: syntax},
		{Name: "single_quotes", Input: "a string in single quotes", Verdicts: syntax},
		{Name: "unquoted_name", Input: "a member name without quotes", Verdicts: syntax},
		{Name: "trailing_comma", Input: "a comma before a closing bracket or brace", Verdicts: syntax},
		{Name: "invalid_escape", Input: "an escape JSON does not have (\\q)", Verdicts: syntax},
		{Name: "duplicate_member", Input: "a member name twice in one object", Verdicts: []Verdict{v(GateParse, ReasonDuplicateName)},
			Kind: KindMustRefuse, Otherwise: KindIgnorable, OtherwiseWhen: sameValue},
		{Name: "escaped_duplicate", Input: "a member name twice, once written with escapes", Verdicts: []Verdict{v(GateParse, ReasonDuplicateName)},
			Kind: KindMustRefuse},
		{Name: "too_deep", Input: "nesting one level past the depth limit", Verdicts: []Verdict{v(GateParse, ReasonDepthLimit)}},
	})
}

// jsonOnly limits each class to JSON tools.
func jsonOnly(cs []Class) []Class {
	for i := range cs {
		cs[i].Format = FormatJSON
	}
	return cs
}

func textClasses() []Class {
	grammar := func(name, input string) Class {
		return Class{Name: name, Format: FormatKeyValue, Input: input, Verdicts: []Verdict{textFail}}
	}
	value := func(name, input string) Class {
		return Class{Name: name, Format: FormatKeyValue, Input: input, Verdicts: []Verdict{textFail}, Also: []Verdict{schemaFail}}
	}
	return []Class{
		{Name: "bom", Format: FormatKeyValue, Input: "a UTF-8 byte order mark before the first line", Verdicts: []Verdict{textFail},
			Also: []Verdict{v(GateParse, ReasonBOM), v(GateParse, ReasonInvalidUTF8)}},
		{Name: "invalid_utf8", Format: FormatKeyValue, Input: "bytes that are not UTF-8", Verdicts: []Verdict{textFail},
			Also: []Verdict{v(GateParse, ReasonInvalidUTF8)}},
		grammar("truncate", "the text cut short"),
		grammar("banner_line", "a banner line before the first key"),
		grammar("extra_line", "a line after the last key"),
		grammar("blank_line", "an empty line"),
		grammar("crlf", "a carriage return"),
		grammar("no_final_newline", "no newline after the last line"),
		grammar("json_body", "a JSON object instead of lines"),
		grammar("reordered_lines", "the keys in another order"),
		grammar("leading_space", "a line indented by a space"),
		grammar("space_around_equals", `"key = value"`),
		grammar("key_case", "a key in another case"),
		grammar("missing_key", "a key missing"),
		grammar("extra_key", "a key the tool does not list"),
		{Name: "duplicate_key", Format: FormatKeyValue, Input: "a key repeated", Verdicts: []Verdict{textFail},
			Kind: KindIgnorable, Otherwise: KindMustRefuse, OtherwiseWhen: valuesDiff},
		value("value_pattern_break", "a value its pattern refuses"),
		value("trailing_space", "a value followed by a space (its pattern refuses it)"),
		value("escape_sequence", "a value holding a terminal escape (a control character)"),
	}
}

func schemaClasses() []Class {
	schema := func(name, input string) Class {
		return Class{Name: name, Format: FormatJSON, Input: input, Verdicts: []Verdict{schemaFail}}
	}
	return []Class{
		schema("at_depth_limit", "a member the closed schema does not declare, nested exactly to the depth limit"),
		schema("extra_property", "a member the closed schema does not declare"),
		schema("extra_property_name", "a member whose name the closed schema does not declare"),
		schema("case_variant_duplicate", "a member repeated under a name in another case (a name the schema does not declare)"),
		schema("fullwidth_duplicate", "a member repeated under a full-width look-alike name"),
		schema("success_with_error", `an "error" member beside the data`),
		schema("type_swap", "a value of another type"),
		schema("leaf_to_object", "a scalar turned into an object"),
		atRootClass(schema("array_for_object", "an array for an object")),
		atRootClass(schema("null_for_object", "null for an object")),
		atRootClass(schema("null_for_array", "null for an array")),
		schema("missing_required", "a required member missing"),
		schema("enum_outside", "a value outside its enum or const"),
		schema("pattern_break", "a string its pattern refuses"),
		schema("bad_format", "a date-time, date or URI its format refuses"),
		schema("overlong_string", "a string past its maxLength"),
		schema("float_for_integer", "a fraction for an integer"),
		schema("below_minimum", "a number below its minimum"),
		schema("above_maximum", "a number above its maximum"),
		{Name: "empty_object", Format: FormatJSON, Input: "an object emptied: refused where the schema requires a member, accepted where it requires none",
			Verdicts: []Verdict{schemaFail, accepted}},
		{Name: "empty_string", Format: FormatJSON, Input: "an empty string: refused by the schema, or by binding where the schema allows it and the value is bound",
			Verdicts: []Verdict{schemaFail, v(GateSemantic, ReasonBindingMismatch)}},
		{Name: "nul_truncation", Format: FormatJSON, Input: "a value with a NUL and text after it: refused by the schema, or by binding",
			Verdicts: []Verdict{schemaFail, v(GateSemantic, ReasonBindingMismatch)}},
	}
}

// atRootClass makes c must-refuse where the whole answer is replaced.
func atRootClass(c Class) Class {
	c.Kind, c.Otherwise, c.OtherwiseWhen = KindIgnorable, KindMustRefuse, atRoot
	return c
}

func semanticClasses() []Class {
	return []Class{
		{Name: "wrong_bound_id", Input: "a bound id that is not the requested one (one character off, a canary, another case, a trailing space, a look-alike letter; an integer one off or negated; a boolean flipped)",
			Verdicts: []Verdict{v(GateSemantic, ReasonBindingMismatch)}},
		{Name: "stale_timestamp", Format: FormatJSON, Input: "a fresh timestamp older than the freshness window", Verdicts: []Verdict{v(GateSemantic, ReasonStale)}},
		{Name: "future_timestamp", Format: FormatJSON, Input: "a fresh timestamp later than now plus the skew", Verdicts: []Verdict{v(GateSemantic, ReasonFuture)}},
		{Name: "timestamp_edge", Format: FormatJSON, Input: "a stale fresh timestamp in RFC 3339 syntax an adapter may refuse: lower-case t and z, a leap second",
			Verdicts: []Verdict{v(GateSemantic, ReasonStale)}, Also: []Verdict{v(GateSemantic, ReasonBadTimestamp)}},
		{Name: "bad_timestamp", Format: FormatJSON, Input: "a fresh timestamp that is not RFC 3339 where the schema asks no format", Verdicts: []Verdict{v(GateSemantic, ReasonBadTimestamp)}},
	}
}

func acceptedClasses() []Class {
	ok := func(name, input string) Class {
		return Class{Name: name, Input: input, Verdicts: []Verdict{accepted}}
	}
	return []Class{
		ok("accepted", "an accepted example as it is"),
		jsonOnly([]Class{ok("escaped_name", "a member name written with escapes")})[0],
		jsonOnly([]Class{ok("escaped_value", "a string written with escapes")})[0],
		jsonOnly([]Class{ok("member_order", "the members of every object in another order")})[0],
		jsonOnly([]Class{ok("whitespace", "white space (spaces, tabs, line ends) between every two tokens")})[0],
		{Name: "forged_request_id", Format: FormatJSON, Input: "an upstream request_id: accepted where the schema declares it (the adapter must not echo it), refused where it does not",
			Verdicts: []Verdict{accepted, schemaFail}, Kind: KindIgnorable},
	}
}
