package openapi

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMinimal checks the instance Minimal makes for each schema, and that
// the judge accepts it.
func TestMinimal(t *testing.T) {
	for _, tc := range []struct{ name, schema, want string }{
		{"required members only", `{"type": "object", "required": ["b"], "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "unevaluatedProperties": false}`, `{"b": ""}`},
		{"members in declaration order", `{"type": "object", "required": ["b", "a"], "properties": {"a": {"type": "boolean"}, "b": {"type": "null"}}}`, `{"a": false, "b": null}`},
		{"minProperties adds declared members", `{"type": "object", "minProperties": 1, "properties": {"a": {"type": "integer"}}}`, `{"a": 0}`},
		{"dependentRequired", `{"type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}, "b": {"type": "string"}}, "dependentRequired": {"a": ["b"]}}`, `{"a": 0, "b": ""}`},
		{"the first enum value", `{"type": "string", "enum": ["x", "y"]}`, `"x"`},
		{"the first enum value the rest allows", `{"allOf": [{"enum": ["x", 2]}, {"type": "integer"}]}`, `2`},
		{"const", `{"const": {"k": [1]}}`, `{"k": [1]}`},
		{"date-time", `{"type": "string", "format": "date-time"}`, `"2024-01-01T00:00:00Z"`},
		{"date", `{"type": "string", "format": "date"}`, `"2024-01-01"`},
		{"uri", `{"type": "string", "format": "uri"}`, `"https://example.com/"`},
		{"email", `{"type": "string", "format": "email"}`, `"user@example.com"`},
		{"uuid", `{"type": "string", "format": "uuid"}`, `"00000000-0000-4000-8000-000000000000"`},
		{"ipv4", `{"type": "string", "format": "ipv4"}`, `"192.0.2.1"`},
		{"ipv6", `{"type": "string", "format": "ipv6"}`, `"2001:db8::1"`},
		{"duration", `{"type": "string", "format": "duration"}`, `"P1D"`},
		{"a pattern", `{"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"}`, `"AAA-0000"`},
		{"a pattern with alternatives and groups", `{"type": "string", "pattern": "^(ab|cd)+(x)?\\.json$"}`, `"ab.json"`},
		{"a pattern stretched to minLength", `{"type": "string", "pattern": "^x+$", "minLength": 3}`, `"xxx"`},
		{"minLength", `{"type": "string", "minLength": 2}`, `"aa"`},
		{"zero when allowed", `{"type": "integer", "minimum": -5, "maximum": 5}`, `0`},
		{"minimum", `{"type": "integer", "minimum": 5}`, `5`},
		{"exclusiveMinimum on an integer", `{"type": "integer", "exclusiveMinimum": 5}`, `6`},
		{"exclusiveMinimum on a number with a maximum", `{"type": "number", "exclusiveMinimum": 0, "maximum": 1}`, `0.5`},
		{"a negative maximum", `{"type": "integer", "maximum": -3}`, `-3`},
		{"multipleOf above the minimum", `{"type": "integer", "minimum": 10, "multipleOf": 7}`, `14`},
		{"the int64 range", `{"type": "integer", "minimum": -9223372036854775808, "maximum": 9223372036854775807}`, `0`},
		{"minItems", `{"type": "array", "minItems": 2, "items": {"type": "boolean"}}`, `[false, false]`},
		{"prefixItems", `{"type": "array", "minItems": 2, "prefixItems": [{"type": "string"}], "items": {"type": "integer"}}`, `["", 0]`},
		{"contains", `{"type": "array", "contains": {"const": 3}}`, `[3]`},
		{"oneOf: the first branch that yields an instance", `{"oneOf": [{"type": "string", "minLength": 3, "maxLength": 2}, {"type": "integer"}]}`, `0`},
		{"oneOf: a branch another also accepts is skipped", `{"oneOf": [{"type": "number"}, {"type": "integer"}, {"type": "string"}]}`, `""`},
		{"anyOf with null: the first", `{"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "null"}], "unevaluatedProperties": false}`, `{}`},
		{"a type list prefers a non-null type", `{"type": ["null", "string"]}`, `""`},
		{"number and integer together make an integer", `{"allOf": [{"type": "number"}, {"type": "integer", "minimum": 1.5}]}`, `2`},
		{"a $ref into $defs", `{"$ref": "#/$defs/a", "$defs": {"a": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string", "format": "uuid"}}}}}`, `{"id": "00000000-0000-4000-8000-000000000000"}`},
		{"a recursive schema stops at the optional member", `{"type": "object", "required": ["kids"], "properties": {"kids": {"type": "array", "items": {"$ref": "#"}}}}`, `{"kids": []}`},
		{"a nullable recursive member takes null", `{"$ref": "#/$defs/n", "$defs": {"n": {"type": "object", "required": ["next"], "properties": {"next": {"anyOf": [{"$ref": "#/$defs/n"}, {"type": "null"}]}}}}}`, `{"next": null}`},
		{"no type: null", `{"description": "anything"}`, `null`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			schema := json.RawMessage(`{"$schema": "https://json-schema.org/draft/2020-12/schema", ` + tc.schema[1:])
			got, err := Minimal(schema)
			if err != nil {
				t.Fatalf("Minimal: %v", err)
			}
			if diff := cmp.Diff(decodeAny(t, tc.want), decodeAny(t, string(got))); diff != "" {
				t.Errorf("Minimal (-want +got):\n%s", diff)
			}
			if err := validates(t, mustCompile(t, tc.name, schema), got); err != nil {
				t.Errorf("the judge refuses %s: %v", got, err)
			}
		})
	}
}

// TestMinimalImpossible checks that Minimal says when it cannot make an
// instance, rather than return one the schema refuses.
func TestMinimalImpossible(t *testing.T) {
	for _, tc := range []struct{ name, schema string }{
		{"a pattern its generator cannot lengthen", `{"type": "string", "pattern": "^a$", "minLength": 3}`},
		{"nothing accepted", `{"not": {}}`},
		{"false", `{"properties": {"a": false}, "required": ["a"]}`},
		{"contradictory bounds", `{"type": "integer", "minimum": 3, "maximum": 2}`},
		{"a required member recursing forever", `{"$ref": "#/$defs/a", "$defs": {"a": {"type": "object", "required": ["a"], "properties": {"a": {"$ref": "#/$defs/a"}}}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			schema := json.RawMessage(`{"$schema": "https://json-schema.org/draft/2020-12/schema", ` + tc.schema[1:])
			got, err := Minimal(schema)
			if !errors.Is(err, ErrNoInstance) {
				t.Errorf("Minimal = %s, %v; want ErrNoInstance", got, err)
			}
		})
	}
}
