package gate

import (
	"errors"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/toolcert/toolcert/protocol"
)

// ErrRemoteRef is returned (wrapped) when a schema's $ref would load a
// document from a file or URL: pinned schemas are self-contained.
var ErrRemoteRef = errors.New("schema loading from a file or URL is refused")

// ErrDraft is returned (wrapped) when a schema declares a $schema other than
// [protocol.DraftURI].
var ErrDraft = errors.New("schema draft is not 2020-12")

// Schema is a compiled, pinned JSON Schema: Draft 2020-12, format assertions
// on, no loading of other documents. Build it with [Compile]; it is safe for
// concurrent use.
type Schema struct {
	name string
	sch  *jsonschema.Schema
}

// Compile parses schemaJSON strictly (see [ParseJSON]) and compiles it under
// name, which only labels messages. It fails when the document is not strict
// JSON, declares a draft other than 2020-12 ([ErrDraft]), refers to a file
// or URL ([ErrRemoteRef]) or is not a valid schema.
func Compile(name string, schemaJSON []byte) (*Schema, error) {
	doc, err := ParseJSON(schemaJSON, Limits{MaxDepth: 256})
	if err != nil {
		return nil, fmt.Errorf("compile schema %s: %w", name, err)
	}
	if obj, ok := doc.(map[string]any); ok {
		if s, ok := obj["$schema"]; ok && s != protocol.DraftURI {
			return nil, fmt.Errorf("compile schema %s: %w: %v", name, ErrDraft, s)
		}
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	refused := &refuseLoader{}
	c.UseLoader(refused)
	loc := "mem:///toolcert/" + safeName(name) // one document per compiler
	if err := c.AddResource(loc, doc); err != nil {
		return nil, fmt.Errorf("compile schema %s: %w", name, err)
	}
	sch, err := c.Compile(loc)
	if err != nil && refused.url != "" {
		return nil, fmt.Errorf("compile schema %s: %w: %s", name, ErrRemoteRef, refused.url)
	}
	if err != nil {
		return nil, fmt.Errorf("compile schema %s: %w", name, err)
	}
	return &Schema{name: name, sch: sch}, nil
}

// Validate checks v, a value tree as [ParseJSON] returns it, and returns nil
// or a *Rejection{protocol.GateSchema, "schema_violation"} whose Err carries the
// validator's message (operator detail only).
func (s *Schema) Validate(v any) error {
	if err := s.sch.Validate(v); err != nil {
		return &Rejection{Gate: protocol.GateSchema, Reason: protocol.ReasonSchemaViolation, Err: fmt.Errorf("%s: %w", s.name, err)}
	}
	return nil
}

// Name returns the name the schema was compiled under.
func (s *Schema) Name() string { return s.name }

// safeName keeps the letters, digits, '.', '_' and '-' of name, so that it
// is a URL path segment as is; the rest become '_'.
func safeName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "schema"
	}
	return string(b)
}

// refuseLoader refuses every document the compiler asks for and remembers
// the first URL asked, since the compiler's error does not unwrap.
type refuseLoader struct{ url string }

// Load returns ErrRemoteRef.
func (l *refuseLoader) Load(url string) (any, error) {
	if l.url == "" {
		l.url = url
	}
	return nil, fmt.Errorf("%w: %s", ErrRemoteRef, url)
}
