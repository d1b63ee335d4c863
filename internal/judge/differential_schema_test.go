package judge_test

import (
	"encoding/json"
)

// equalProbes returns the bindings of the table (names "equal/...").
func equalProbes() []probe {
	tests := []struct {
		name string
		got  any
		want string
	}{
		{"same", "CR-1", "CR-1"}, {"other", "CR-2", "CR-1"}, {"number", json.Number("1"), "1"}, {"nil-empty", nil, ""},
		{"bool", true, "true"}, {"array", []any{"CR-1"}, "CR-1"}, {"case", "cr-1", "CR-1"}, {"empty", "", ""},
		{"number-other", json.Number("2"), "1"}, {"number-exp", json.Number("1e3"), "1000"}, {"number-fraction", json.Number("1.0"), "1"},
		{"number-negative", json.Number("-3"), "-3"}, {"number-minus-zero", json.Number("-0"), "-0"}, {"number-leading-zero", json.Number("7"), "07"},
		{"false", false, "false"}, {"bool-other", false, "true"}, {"bool-word-case", true, "True"},
		{"trailing-space", "CR-1 ", "CR-1"}, {"nfc-nfd", "e\u0301", "\u00e9"},
	}
	probes := make([]probe, len(tests))
	for i, tt := range tests {
		probes[i] = probe{name: "equal/" + tt.name, run: func(m *impl) any { return m.verdictOf(nil, m.equal("/id", tt.got, tt.want)) }}
	}
	return probes
}

// schemaInput is a schema of the table and instances to validate with it.
type schemaInput struct {
	name      string
	schema    string
	instances []string
}

// schemaProbes returns the schemas of the table: Closed over each
// (names "closed/..."), and Compile and Validate (names "schema/...").
func schemaProbes() []probe {
	const draft = `"$schema":"https://json-schema.org/draft/2020-12/schema",`
	inputs := []schemaInput{
		{"closed-object", `{` + draft + `"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`,
			[]string{`{"a":"x"}`, `{"a":1}`, `{"b":"x"}`, `{}`, `[]`}},
		{"open-object", `{"type":"object","properties":{"a":{}}}`, []string{`{"a":1,"b":2}`}},
		{"open-nested", `{"properties":{"a":{"properties":{"b":{}}}},"additionalProperties":false}`, nil},
		{"sealed-allof", `{"allOf":[{"properties":{"a":{}}},{"properties":{"b":{}}}],"unevaluatedProperties":false}`,
			[]string{`{"a":1,"b":2}`, `{"a":1,"c":2}`}},
		{"unsealed-allof", `{"allOf":[{"properties":{"a":{}}}]}`, nil},
		{"sealed-chain", `{"unevaluatedProperties":false,"allOf":[{"allOf":[{"properties":{"a":{}}}]}]}`, nil},
		{"sealed-not-through-items", `{"unevaluatedProperties":false,"items":{"properties":{"a":{}}}}`, nil},
		{"open-defs", `{"$defs":{"x":{"properties":{"a":{}}}},"type":"string"}`, nil},
		{"enum-instances", `{"enum":[{"properties":{"a":{}}}],"const":{"properties":{}},"examples":[{"properties":{}}],"default":{"properties":{}}}`, nil},
		{"property-named-default", `{"properties":{"default":{"properties":{"x":{}}}},"additionalProperties":false}`, nil},
		{"property-named-properties", `{"properties":{"properties":{"type":"string"}},"additionalProperties":false}`, nil},
		{"additional-true", `{"properties":{"a":{}},"additionalProperties":true}`, nil},
		{"additional-schema", `{"properties":{"a":{}},"additionalProperties":{}}`, nil},
		{"open-in-anyof-and-oneof", `{"anyOf":[{"properties":{"a":{}},"additionalProperties":false},{"oneOf":[{"properties":{"b":{}}}]}]}`, nil},
		{"two-open-first-sorted", `{"z":{"properties":{}},"a":{"properties":{}}}`, nil},
		{"escaped-pointer", `{"$defs":{"a/b~c":{"properties":{}}}}`, nil},
		{"format-date-time", `{` + draft + `"type":"string","format":"date-time"}`,
			[]string{`"2026-11-29T16:00:00Z"`, `"2026-11-29 16:00:00"`, `"2026-11-29T23:59:60Z"`, `"2026-11-29T1:00:00Z"`, `1`}},
		{"format-uri", `{"type":"string","format":"uri"}`, []string{`"https://example.com/x"`, `"not a uri"`, `"/relative"`}},
		{"format-email", `{"format":"email"}`, []string{`"a@example.com"`, `"a"`}},
		{"integer", `{"type":"integer","minimum":1,"maximum":1000}`, []string{`1`, `1.0`, `5e2`, `0`, `1001`, `1.5`, `"1"`}},
		{"big-numbers", `{"type":"number","maximum":1e308}`, []string{`1e308`, `1.7976931348623157e308`, `-1e308`, `123456789012345678901234567890`}},
		{"pattern", `{"type":"string","pattern":"^CR-[0-9]{1,10}$"}`, []string{`"CR-1"`, `"CR-"`, `"xCR-1"`}},
		{"other-draft", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"string"}`, nil},
		{"draft-with-fragment", `{"$schema":"https://json-schema.org/draft/2020-12/schema#"}`, nil},
		{"draft-not-string", `{"$schema":7}`, nil},
		{"remote-relative", `{"$ref":"other.json"}`, nil}, {"remote-url", `{"$ref":"https://example.com/s.json"}`, nil},
		{"remote-file", `{"$ref":"file:///etc/passwd"}`, nil}, {"local-ref", `{"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s"}`, []string{`"a"`, `1`}},
		{"missing-local-ref", `{"$ref":"#/$defs/nothing"}`, nil},
		{"bad-keyword-type", `{"type":5}`, nil}, {"bad-pattern", `{"pattern":"("}`, nil},
		{"duplicate-keyword", `{"type":"string","type":"number"}`, nil}, {"not-json", `{"type":}`, nil},
		{"true-schema", `true`, []string{`1`}}, {"false-schema", `false`, []string{`1`}}, {"array-schema", `[]`, nil},
		{"deep-schema", deepSchema(200), []string{`1`}}, {"too-deep-schema", deepSchema(300), nil},
	}
	var probes []probe
	for _, in := range inputs {
		probes = append(probes, closedProbe("closed/"+in.name, []byte(in.schema)))
		probes = append(probes, compileProbe("schema/"+in.name, []byte(in.schema), in.instances))
	}
	return probes
}

// deepSchema nests "not" n levels deep.
func deepSchema(n int) string {
	s := `{}`
	for range n {
		s = `{"not":` + s + `}`
	}
	return s
}

// closedProbe checks schema for closedness.
func closedProbe(name string, schema []byte) probe {
	return probe{name: name, run: func(m *impl) any { return m.verdictOf(nil, m.closed(schema)) }}
}

// compileResult is what an implementation makes of a schema and its
// instances.
type compileResult struct {
	Compile   verdict
	Instances []verdict
}

// compileProbe compiles schema and validates each instance (parsed with
// gate's parser, the same tree for both) with it.
func compileProbe(name string, schema []byte, instances []string) probe {
	return probe{name: name, run: func(m *impl) any {
		validate, err := m.compile(name, schema)
		r := compileResult{Compile: m.verdictOf(nil, err)}
		for _, in := range instances {
			doc, perr := gateImpl().parseJSON([]byte(in), 0)
			if perr != nil {
				return "bad test instance " + in
			}
			if validate != nil {
				r.Instances = append(r.Instances, m.verdictOf(nil, validate(doc)))
			}
		}
		return r
	}}
}
