package judge_test

import (
	"errors"
	"testing"

	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
)

func TestCompile(t *testing.T) {
	tests := []struct {
		name, schema string
		want         error // nil: compiles
		reason       string
		why          string
	}{
		{"ok", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}`, nil, "", "the pinned draft"},
		{"no-draft", `{"type":"string"}`, nil, "", "2020-12 is the default"},
		{"local-ref", `{"$defs":{"a":{"type":"string"}},"$ref":"#/$defs/a"}`, nil, "", "a reference inside the document"},
		{"draft-07", `{"$schema":"http://json-schema.org/draft-07/schema#"}`, judge.ErrDraft, "", "another draft"},
		{"draft-fragment", `{"$schema":"https://json-schema.org/draft/2020-12/schema#"}`, judge.ErrDraft, "", "the URI exactly"},
		{"relative-ref", `{"$ref":"other.json"}`, judge.ErrRemoteRef, "", "no other document"},
		{"url-ref", `{"$ref":"https://example.com/s.json"}`, judge.ErrRemoteRef, "", "no URL"},
		{"duplicate", `{"type":"string","type":"number"}`, nil, protocol.ReasonDuplicateName, "strict JSON"},
		{"invalid", `{"type":5}`, errors.New("any"), "", "not a valid schema"},
	}
	for _, tt := range tests {
		s, err := judge.Compile(tt.name, []byte(tt.schema))
		switch {
		case tt.want == nil && tt.reason == "":
			if err != nil || s.Name() != tt.name {
				t.Errorf("%s: Compile = %v, %v; want a schema named %s (%s)", tt.name, s, err, tt.name, tt.why)
			}
		case tt.reason != "":
			if r, ok := judge.AsRejection(err); !ok || r.Reason != tt.reason {
				t.Errorf("%s: Compile = %v, want rejection %s (%s)", tt.name, err, tt.reason, tt.why)
			}
		case tt.want == judge.ErrDraft || tt.want == judge.ErrRemoteRef:
			if !errors.Is(err, tt.want) {
				t.Errorf("%s: Compile = %v, want %v (%s)", tt.name, err, tt.want, tt.why)
			}
		default:
			if err == nil {
				t.Errorf("%s: Compile succeeded (%s)", tt.name, tt.why)
			}
		}
	}
}

func TestValidate(t *testing.T) {
	s, err := judge.Compile("observed", []byte(`{"type":"object","properties":{"at":{"type":"string","format":"date-time"}},"required":["at"],"additionalProperties":false}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		doc string
		ok  bool
		why string
	}{
		{`{"at":"2026-11-29T16:00:00Z"}`, true, "valid"},
		{`{"at":"yesterday"}`, false, "format assertions are on"},
		{`{"at":"2026-11-29T16:00:00Z","x":1}`, false, "closed"},
		{`{}`, false, "required"},
	}
	for _, tt := range tests {
		doc, err := judge.ParseJSON([]byte(tt.doc), judge.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		err = s.Validate(doc)
		if tt.ok != (err == nil) {
			t.Errorf("Validate(%s) = %v, want ok %v (%s)", tt.doc, err, tt.ok, tt.why)
		}
		if r, isRejection := judge.AsRejection(err); err != nil && (!isRejection || r.Gate != protocol.GateSchema || r.Reason != protocol.ReasonSchemaViolation || r.Detail() == "") {
			t.Errorf("Validate(%s) = %v, want schema schema_violation with detail", tt.doc, err)
		}
	}
}
