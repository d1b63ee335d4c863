package gate

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/protocol"
)

func TestCompile(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   error // sentinel, or errAny for any error
	}{
		{name: "plain 2020-12", schema: `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}`},
		{name: "no $schema", schema: `{"type":"string"}`},
		{name: "internal $ref", schema: `{"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s"}`},
		{name: "draft 7", schema: `{"$schema":"http://json-schema.org/draft-07/schema#"}`, want: ErrDraft},
		{name: "http ref", schema: `{"$ref":"http://127.0.0.1:1/evil.json"}`, want: ErrRemoteRef},
		{name: "file ref", schema: `{"$ref":"file:///etc/passwd"}`, want: ErrRemoteRef},
		{name: "relative ref", schema: `{"$ref":"other.json"}`, want: ErrRemoteRef},
		{name: "duplicate keyword", schema: `{"type":"string","type":"object"}`, want: errAny},
		{name: "invalid schema", schema: `{"type":"strin"}`, want: errAny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile(tt.name, []byte(tt.schema))
			switch {
			case tt.want == nil && err != nil:
				t.Fatalf("Compile: %v", err)
			case tt.want == errAny && err == nil, tt.want != nil && tt.want != errAny && !errors.Is(err, tt.want):
				t.Fatalf("Compile err = %v, want %v", err, tt.want)
			}
		})
	}
}

var errAny = errors.New("any error")

func TestSchemaValidate(t *testing.T) {
	sch, err := Compile("test", []byte(`{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"type": "object",
		"properties": {
			"at": {"type": "string", "format": "date-time"},
			"url": {"type": "string", "format": "uri"},
			"n": {"type": "integer", "maximum": 10}
		},
		"required": ["at"],
		"additionalProperties": false
	}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		doc  string
		want string
	}{
		{name: "valid", doc: `{"at":"2026-11-29T16:00:00Z","url":"https://x.example/a","n":3}`},
		{name: "format asserted", doc: `{"at":"2026-13-45T00:00:00Z"}`, want: protocol.ReasonSchemaViolation},
		{name: "uri format", doc: `{"at":"2026-11-29T16:00:00Z","url":"not a uri"}`, want: protocol.ReasonSchemaViolation},
		{name: "closed", doc: `{"at":"2026-11-29T16:00:00Z","extra":1}`, want: protocol.ReasonSchemaViolation},
		{name: "json.Number checked", doc: `{"at":"2026-11-29T16:00:00Z","n":11}`, want: protocol.ReasonSchemaViolation},
		{name: "integer with fraction", doc: `{"at":"2026-11-29T16:00:00Z","n":1.5}`, want: protocol.ReasonSchemaViolation},
		{name: "missing required", doc: `{}`, want: protocol.ReasonSchemaViolation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := ParseJSON([]byte(tt.doc), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			err = sch.Validate(v)
			if diff := cmp.Diff(tt.want, reasonOf(t, err, protocol.GateSchema)); diff != "" {
				t.Errorf("reason (-want +got):\n%s\nerr: %v", diff, err)
			}
		})
	}
}
