package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/internal/judge"
)

// Snippet descriptions: one operation whose 200 body schema is %[2]s,
// components (or definitions) %[3]s; %[1]s is the version.
const (
	snippet3 = `openapi: %s
info: {title: snippet, version: '1'}
paths:
  /x:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: %s
components:
  schemas: %s
`
	snippet2 = `swagger: '%s'
info: {title: snippet, version: '1'}
produces: [application/json]
paths:
  /x:
    get:
      responses:
        '200':
          description: ok
          schema: %s
definitions: %s
`
)

// Where a snippet's body schema is, as a Note pointer.
const (
	at3 = "/paths/~1x/get/responses/200/content/application~1json/schema"
	at2 = "/paths/~1x/get/responses/200/schema"
)

// convertCase is one schema conversion: the schema and components as
// YAML flow (JSON mostly), the expected schema without $schema, and the
// expected notes.
type convertCase struct {
	name       string
	version    string // "3.0.3", "3.1.0", "2.0"
	schema     string
	components string
	open       bool
	want       string
	notes      []wantNote
}

var convertCases = []convertCase{
	{
		name: "3.0 nullable with a type adds null to the type", version: "3.0.3",
		schema: `{"type": "string", "nullable": true}`,
		want:   `{"type": ["string", "null"]}`,
	},
	{
		name: "3.0 nullable enum gets null among its values", version: "3.0.3",
		schema: `{"type": "string", "enum": ["a", "b"], "nullable": true}`,
		want:   `{"type": ["string", "null"], "enum": ["a", "b", null]}`,
	},
	{
		name: "3.0 nullable $ref becomes anyOf with null, closed above", version: "3.0.3",
		schema:     `{"$ref": "#/components/schemas/u", "nullable": true}`,
		components: `{"u": {"type": "object", "properties": {"a": {"type": "string"}}}}`,
		want:       `{"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "null"}], "unevaluatedProperties": false}`,
	},
	{
		name: "3.0 nullable oneOf becomes anyOf with null", version: "3.0.3",
		schema: `{"oneOf": [{"type": "string"}, {"type": "integer"}], "nullable": true}`,
		want:   `{"anyOf": [{"oneOf": [{"type": "string"}, {"type": "integer"}]}, {"type": "null"}]}`,
	},
	{
		name: "3.0 nullable without a type or enum changes nothing", version: "3.0.3",
		schema: `{"nullable": true, "description": "anything"}`,
		want:   `{"description": "anything"}`,
	},
	{
		name: "3.0 boolean exclusive bounds become numeric", version: "3.0.3",
		schema: `{"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 10, "exclusiveMaximum": false}`,
		want:   `{"type": "number", "exclusiveMinimum": 0, "maximum": 10}`,
	},
	{
		name: "exclusiveMaximum without maximum is noted", version: "3.0.3",
		schema: `{"type": "integer", "exclusiveMaximum": true}`,
		want:   `{"type": "integer"}`,
		notes:  []wantNote{{at3 + "/exclusiveMaximum", "exclusiveMaximum: true without maximum: ignored"}},
	},
	{
		name: "int32 is its range, a stricter bound stays", version: "3.0.3",
		schema: `{"type": "integer", "format": "int32", "minimum": -5, "maximum": 9999999999}`,
		want:   `{"type": "integer", "minimum": -5, "maximum": 2147483647}`,
	},
	{
		name: "int64 is its range, exactly", version: "3.0.3",
		schema: `{"type": "integer", "format": "int64"}`,
		want:   `{"type": "integer", "minimum": -9223372036854775808, "maximum": 9223372036854775807}`,
	},
	{
		name: "float and double say nothing checked and go", version: "3.0.3",
		schema: `{"type": "number", "format": "float"}`,
		want:   `{"type": "number"}`,
	},
	{
		name: "a vendor format is dropped with a note", version: "3.0.3",
		schema: `{"type": "string", "format": "x-color"}`,
		want:   `{"type": "string"}`,
		notes:  []wantNote{{at3 + "/format", `format "x-color" is not a Draft 2020-12 format: dropped`}},
	},
	{
		name: "annotations stay, example becomes examples, xml, externalDocs and x-* go silently", version: "3.0.3",
		schema: `{"type": "string", "title": "T", "description": "D", "default": "d", "readOnly": true, "writeOnly": false,
			"deprecated": true, "example": "e", "xml": {"name": "n"}, "externalDocs": {"url": "https://e.com"}, "x-foo": 1}`,
		want: `{"title": "T", "description": "D", "deprecated": true, "readOnly": true, "writeOnly": false, "type": "string", "default": "d", "examples": ["e"]}`,
	},
	{
		name: "3.0 $ref siblings: annotations replace the target's, constraints are ignored", version: "3.0.3",
		schema:     `{"$ref": "#/components/schemas/s", "description": "mine", "example": "ab", "maxLength": 3}`,
		components: `{"s": {"type": "string", "description": "theirs", "example": "xyz"}}`,
		want:       `{"description": "mine", "type": "string", "examples": ["ab"]}`,
		notes:      []wantNote{{at3 + "/maxLength", "maxLength beside $ref is ignored, as OpenAPI 3.0 says"}},
	},
	{
		name: "3.1 $ref siblings apply with it, as an allOf", version: "3.1.0",
		schema:     `{"$ref": "#/components/schemas/s", "description": "mine", "maxLength": 3}`,
		components: `{"s": {"type": "string", "description": "theirs"}}`,
		want:       `{"description": "mine", "maxLength": 3, "allOf": [{"type": "string", "description": "theirs"}]}`,
	},
	{
		name: "3.1 type arrays, const and examples pass through", version: "3.1.0",
		schema: `{"type": ["string", "null"], "const": "x", "examples": ["x"]}`,
		want:   `{"type": ["string", "null"], "const": "x", "examples": ["x"]}`,
	},
	{
		name: "3.1 nullable is no keyword", version: "3.1.0",
		schema: `{"type": "string", "nullable": true}`,
		want:   `{"type": "string"}`,
		notes:  []wantNote{{at3 + "/nullable", "nullable is not a keyword of this OpenAPI version: ignored"}},
	},
	{
		name: "allOf members stay open, their parent closes them", version: "3.0.3",
		schema: `{"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "object", "properties": {"b": {"type": "object", "properties": {"c": {"type": "string"}}}}}]}`,
		want: `{"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}},
			{"type": "object", "properties": {"b": {"type": "object", "properties": {"c": {"type": "string"}}, "unevaluatedProperties": false}}}],
			"unevaluatedProperties": false}`,
	},
	{
		name: "additionalProperties false stays and is enough", version: "3.0.3",
		schema: `{"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}`,
		want:   `{"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}`,
	},
	{
		name: "additionalProperties true is a free-form object, noted", version: "3.0.3",
		schema: `{"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": true}`,
		want:   `{"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": true, "unevaluatedProperties": false}`,
		notes:  []wantNote{{at3 + "/additionalProperties", "free-form object: additionalProperties: true"}},
	},
	{
		name: "open: nothing is closed", version: "3.0.3", open: true,
		schema: `{"allOf": [{"type": "object", "properties": {"a": {"type": "object", "properties": {"c": {"type": "string"}}}}}]}`,
		want:   `{"allOf": [{"type": "object", "properties": {"a": {"type": "object", "properties": {"c": {"type": "string"}}}}}]}`,
	},
	{
		name: "a discriminator branch that is no $ref is noted", version: "3.0.3",
		schema:     `{"oneOf": [{"$ref": "#/components/schemas/a"}, {"type": "object", "properties": {"k": {"type": "string"}}}], "discriminator": {"propertyName": "k"}}`,
		components: `{"a": {"type": "object", "properties": {"k": {"type": "string"}}}}`,
		want: `{"oneOf": [{"type": "object", "required": ["k"], "properties": {"k": {"type": "string", "const": "a"}}},
			{"type": "object", "properties": {"k": {"type": "string"}}}], "unevaluatedProperties": false}`,
		notes: []wantNote{{at3 + "/oneOf/1", "branch has no discriminator value"}},
	},
	{
		name: "a discriminator with several values for one branch takes an enum", version: "3.0.3",
		schema:     `{"anyOf": [{"$ref": "#/components/schemas/a"}], "discriminator": {"propertyName": "k", "mapping": {"x": "a", "y": "#/components/schemas/a"}}}`,
		components: `{"a": {"type": "object", "properties": {"k": {"type": "string", "enum": ["x", "y", "z"]}}}}`,
		want:       `{"anyOf": [{"type": "object", "required": ["k"], "properties": {"k": {"type": "string", "enum": ["x", "y"]}}}], "unevaluatedProperties": false}`,
	},
	{
		name: "a discriminator without oneOf or anyOf is noted", version: "3.0.3",
		schema: `{"type": "object", "properties": {"k": {"type": "string"}}, "discriminator": {"propertyName": "k"}}`,
		want:   `{"type": "object", "properties": {"k": {"type": "string"}}, "unevaluatedProperties": false}`,
		notes:  []wantNote{{at3 + "/discriminator", "discriminator without oneOf or anyOf"}},
	},
	{
		name: "a pattern RE2 cannot run is dropped", version: "3.0.3",
		schema: `{"type": "string", "pattern": "^(?!x)"}`,
		want:   `{"type": "string"}`,
		notes:  []wantNote{{at3 + "/pattern", "is not a regular expression the validator runs (RE2): dropped"}},
	},
	{
		name: "an unknown keyword is dropped with a note", version: "3.0.3",
		schema: `{"type": "string", "maxLenght": 3}`,
		want:   `{"type": "string"}`,
		notes:  []wantNote{{at3 + "/maxLenght", "unknown keyword maxLenght: dropped"}},
	},
	{
		name: "2.0 x-nullable adds null", version: "2.0",
		schema: `{"type": "string", "x-nullable": true}`,
		want:   `{"type": ["string", "null"]}`,
	},
	{
		name: "2.0 discriminator is noted", version: "2.0",
		schema: `{"type": "object", "discriminator": "kind", "required": ["kind"], "properties": {"kind": {"type": "string"}}}`,
		want:   `{"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}}, "unevaluatedProperties": false}`,
		notes:  []wantNote{{at2 + "/discriminator", "a Swagger 2.0 discriminator (the allOf form) has no Draft 2020-12 counterpart"}},
	},
	{
		name: "the tuple form of items becomes prefixItems", version: "3.0.3",
		schema: `{"type": "array", "items": [{"type": "string"}]}`,
		want:   `{"type": "array", "prefixItems": [{"type": "string"}]}`,
		notes:  []wantNote{{at3 + "/items", "written as prefixItems"}},
	},
	{
		name: "an example JSON cannot hold is dropped", version: "3.0.3",
		schema: `{"type": "number", "example": .inf}`,
		want:   `{"type": "number"}`,
		notes:  []wantNote{{at3 + "/example", "not representable in JSON"}},
	},
	{
		name: "YAML numbers become JSON literals", version: "3.0.3",
		schema: `{"type": "integer", "maximum": 0x10, "example": +7}`,
		want:   `{"type": "integer", "maximum": 16, "examples": [7]}`,
	},
	{
		name: "$defs of a component are inlined where used", version: "3.1.0",
		schema:     `{"$ref": "#/components/schemas/a"}`,
		components: `{"a": {"$defs": {"b": {"type": "string"}}, "type": "object", "properties": {"x": {"$ref": "#/components/schemas/a/$defs/b"}}}}`,
		want:       `{"type": "object", "properties": {"x": {"type": "string"}}, "unevaluatedProperties": false}`,
	},
	{
		name: "mutual recursion: inlined once, then $defs", version: "3.0.3",
		schema:     `{"$ref": "#/components/schemas/a"}`,
		components: `{"a": {"type": "object", "properties": {"b": {"$ref": "#/components/schemas/b"}}}, "b": {"type": "object", "properties": {"a": {"$ref": "#/components/schemas/a"}}}}`,
		want: `{"type": "object", "properties": {"b": {"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}}, "unevaluatedProperties": false}}, "unevaluatedProperties": false,
			"$defs": {"a": {"type": "object", "properties": {"b": {"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}}, "unevaluatedProperties": false}}, "unevaluatedProperties": false}}}`,
	},
	{
		name: "a recursive allOf member is closed on its own, noted", version: "3.0.3",
		schema:     `{"$ref": "#/components/schemas/a"}`,
		components: `{"a": {"type": "object", "properties": {"child": {"allOf": [{"$ref": "#/components/schemas/a"}, {"type": "object", "properties": {"extra": {"type": "string"}}}]}}}}`,
		want: `{"type": "object", "properties": {"child": {"allOf": [{"$ref": "#/$defs/a"}, {"type": "object", "properties": {"extra": {"type": "string"}}}], "unevaluatedProperties": false}}, "unevaluatedProperties": false,
			"$defs": {"a": {"type": "object", "properties": {"child": {"allOf": [{"$ref": "#/$defs/a"}, {"type": "object", "properties": {"extra": {"type": "string"}}}], "unevaluatedProperties": false}}, "unevaluatedProperties": false}}}`,
		notes: []wantNote{{"/components/schemas/a", "recursive schema kept in $defs and closed on its own"}},
	},
	{
		name: "3.1 boolean subschemas stay", version: "3.1.0",
		schema: `{"type": "object", "properties": {"any": true, "none": false}}`,
		want:   `{"type": "object", "properties": {"any": true, "none": false}, "unevaluatedProperties": false}`,
	},
}

// TestConvert converts one body schema per case and compares it, its
// notes, and that it compiles and is closed.
func TestConvert(t *testing.T) {
	for _, tc := range convertCases {
		t.Run(tc.name, func(t *testing.T) {
			got, notes := convertSnippet(t, tc.version, tc.schema, tc.components, tc.open)
			want := `{"$schema": "https://json-schema.org/draft/2020-12/schema", ` + tc.want[1:]
			if diff := cmp.Diff(decodeAny(t, want), decodeAny(t, string(got))); diff != "" {
				t.Errorf("schema (-want +got):\n%s\ngot:\n%s", diff, got)
			}
			mustCompile(t, tc.name, got)
			if err := judge.Closed(got); err != nil && !tc.open {
				t.Errorf("not closed: %v", err)
			}
			checkNotes(t, notes, tc.notes)
		})
	}
}

// convertSnippet converts the body schema of a snippet description.
func convertSnippet(t *testing.T, version, schema, components string, open bool) (json.RawMessage, []Note) {
	t.Helper()
	if components == "" {
		components = "{}"
	}
	tmpl := snippet3
	if version == "2.0" {
		tmpl = snippet2
	}
	d, err := Load([]byte(fmt.Sprintf(tmpl, version, schema, components)), Options{Open: open})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	op := operation(t, d, Selector{Method: "GET", Path: "/x"})
	if len(op.Responses) != 1 || op.Responses[0].Schema == nil {
		t.Fatalf("responses %+v, want one with a schema", op.Responses)
	}
	return op.Responses[0].Schema, op.Notes
}

// decodeAny decodes JSON for comparison, numbers as their literals.
func decodeAny(t *testing.T, s string) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return v
}

// TestConvertWrongKinds checks that a keyword with a value of the wrong
// kind is dropped with a note, not left to fail compilation.
func TestConvertWrongKinds(t *testing.T) {
	got, notes := convertSnippet(t, "3.0.3",
		`{"type": "string", "title": 5, "readOnly": "yes", "minLength": 1.5, "maxLength": -1, "multipleOf": 0, "required": [1], "enum": "a"}`, "", false)
	if diff := cmp.Diff(decodeAny(t, `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "string"}`), decodeAny(t, string(got))); diff != "" {
		t.Errorf("schema (-want +got):\n%s", diff)
	}
	checkNotes(t, notes, []wantNote{
		{at3 + "/title", "title is not a string: dropped"},
		{at3 + "/readOnly", "readOnly is not a boolean: dropped"},
		{at3 + "/minLength", "minLength is not a non-negative integer: dropped"},
		{at3 + "/maxLength", "maxLength is not a non-negative integer: dropped"},
		{at3 + "/multipleOf", "multipleOf is not a number above 0: dropped"},
		{at3 + "/required", "required is not a list of member names"},
		{at3 + "/enum", "enum is not an array: dropped"},
	})
}
