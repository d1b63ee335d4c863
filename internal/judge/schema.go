package judge

import (
	"errors"
	"fmt"
	"net/url"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/toolcert/toolcert/protocol"
)

// ErrDraft is returned, wrapped, by [Compile] for a schema whose $schema
// is not [protocol.DraftURI].
var ErrDraft = errors.New("schema draft is not 2020-12")

// ErrRemoteRef is returned, wrapped, by [Compile] for a schema that would
// load another document from a file or URL: pinned schemas stand alone.
var ErrRemoteRef = errors.New("schema loading from a file or URL is refused")

// schemaDepth is how deep a schema document may nest.
const schemaDepth = 256

// Schema is a pinned JSON Schema, compiled by [Compile]: Draft 2020-12,
// format assertions on, no other document loaded. It is safe for
// concurrent use.
type Schema struct {
	name     string
	compiled *jsonschema.Schema
}

// Compile parses schemaJSON strictly (as [ParseJSON] does, nesting up to
// 256 levels) and compiles it; name labels messages only. It fails when
// the document is not strict JSON, declares a $schema other than
// protocol.DraftURI ([ErrDraft]), refers to a file or URL ([ErrRemoteRef])
// or is not a valid schema.
func Compile(name string, schemaJSON []byte) (*Schema, error) {
	doc, err := ParseJSON(schemaJSON, Limits{MaxDepth: schemaDepth})
	if err != nil {
		return nil, fmt.Errorf("compile schema %s: %w", name, err)
	}
	if err := checkDraft(doc); err != nil {
		return nil, fmt.Errorf("compile schema %s: %w", name, err)
	}
	compiled, err := compileDoc(name, doc)
	if err != nil {
		return nil, fmt.Errorf("compile schema %s: %w", name, err)
	}
	return &Schema{name: name, compiled: compiled}, nil
}

// checkDraft refuses a document whose top-level $schema, when present, is
// not protocol.DraftURI (a nested $schema is left to the compiler).
func checkDraft(doc any) error {
	obj, isObject := doc.(map[string]any)
	if !isObject {
		return nil
	}
	declared, ok := obj["$schema"]
	if !ok {
		return nil
	}
	if s, isString := declared.(string); !isString || s != protocol.DraftURI {
		return fmt.Errorf("%w: %v", ErrDraft, declared)
	}
	return nil
}

// compileDoc compiles doc alone: draft 2020-12 by default, formats
// asserted, every load refused.
func compileDoc(name string, doc any) (*jsonschema.Schema, error) {
	loader := &refusingLoader{}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(loader)
	where := "mem:///judge/" + url.PathEscape(name)
	if name == "" {
		where = "mem:///judge/schema"
	}
	if err := c.AddResource(where, doc); err != nil {
		return nil, err
	}
	compiled, err := c.Compile(where)
	if err != nil && len(loader.asked) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrRemoteRef, loader.asked[0])
	}
	return compiled, err
}

// refusingLoader refuses every document and remembers what was asked,
// since the compiler's errors do not unwrap to the loader's.
type refusingLoader struct{ asked []string }

// Load refuses url.
func (l *refusingLoader) Load(url string) (any, error) {
	l.asked = append(l.asked, url)
	return nil, fmt.Errorf("%w: %s", ErrRemoteRef, url)
}

// Validate checks v, a value tree as [ParseJSON] returns it, and returns nil
// or a *Rejection at gate schema, reason schema_violation, whose Err holds
// the validator's message (operator detail).
func (s *Schema) Validate(v any) error {
	if err := s.compiled.Validate(v); err != nil {
		return &Rejection{Gate: protocol.GateSchema, Reason: protocol.ReasonSchemaViolation, Err: fmt.Errorf("%s: %w", s.name, err)}
	}
	return nil
}

// Name returns the name the schema was compiled under.
func (s *Schema) Name() string { return s.name }
