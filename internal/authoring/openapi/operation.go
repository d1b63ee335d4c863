package openapi

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pb33f/go-yaml"
	"github.com/toolcert/toolcert/internal/judge"
)

// maxRefHops bounds a chain of $refs to $refs (parameters, responses,
// examples).
const maxRefHops = 32

// Operation is one operation of a description, as plain data.
type Operation struct {
	Method      string // upper case: "GET"
	Path        string // the path template as the description writes it
	OperationID string
	Summary     string
	Description string
	// Parameters are the path and query parameters, path ones first, each
	// group in declaration order: the path item's, then the operation's,
	// one of the operation replacing the path item's of the same name and
	// location in its place.
	Parameters []Parameter
	// Responses are every declared response: numeric statuses ascending,
	// then ranges ("2XX"), then "default".
	Responses []Response
	// Notes name everything that could not be carried over faithfully.
	Notes []Note
}

// Parameter is a path or query parameter.
type Parameter struct {
	Name     string
	In       string // "path" or "query"
	Required bool   // always true for a path parameter
	// Schema is the parameter's schema as a standalone Draft 2020-12
	// document, carrying the parameter's description when the schema has
	// none of its own.
	Schema json.RawMessage
	// Example is the parameter's example (its example, its first examples
	// entry, or its schema's example), nil when there is none.
	Example json.RawMessage
}

// Response is one declared response.
type Response struct {
	Status string // "200", "4XX", "default"
	// MediaType is the JSON media type of the body, as the description
	// writes it; "" when the response has no JSON body.
	MediaType string
	// Schema is the body's schema as a standalone Draft 2020-12 document,
	// nil when there is none.
	Schema json.RawMessage
	// Examples are the media type's example and examples (3.x) or the
	// response's example for MediaType (2.0), then the schema's own
	// example(s); each Value as the description gives it, as JSON. One
	// the schema refuses is kept, with a Note naming it and why.
	Examples []Example
}

// Example is one example of a response body.
type Example struct {
	Name  string // the examples entry's name, or "example", "schema-example"
	Value json.RawMessage
}

// builder makes one Operation.
type builder struct {
	d     *Description
	res   *resolver
	notes *noteSet
}

// Operation returns the operation sel names, converted. A miss or an
// ambiguity is a *SelectError; a $ref the operation reaches that cannot
// be followed (a URL, a file outside Options.BaseDir) is a *RefError.
func (d *Description) Operation(sel Selector) (*Operation, error) {
	res := newResolver(d)
	defer res.close()
	e, err := d.find(res, sel)
	if err != nil {
		return nil, err
	}
	b := &builder{d: d, res: res, notes: &noteSet{}}
	op, err := b.operation(e)
	if err != nil {
		return nil, fmt.Errorf("operation %s: %w", e.label(), err)
	}
	return op, nil
}

// operation converts e.
func (b *builder) operation(e entry) (*Operation, error) {
	op := &Operation{
		Method: strings.ToUpper(e.method), Path: e.path, OperationID: e.id,
		Summary: stringOf(e.opNode, "summary"), Description: stringOf(e.opNode, "description"),
	}
	var err error
	if op.Parameters, err = b.parameters(e); err != nil {
		return nil, err
	}
	b.checkTemplate(e, op.Parameters)
	if op.Responses, err = b.responses(e); err != nil {
		return nil, err
	}
	if lookup(e.opNode, "requestBody") != nil {
		b.notes.add(e.op.child("requestBody"), "the request body is not carried over")
	}
	op.Notes = b.notes.list
	return op, nil
}

// follow resolves a chain of $refs from n at at to the node it ends on.
func (b *builder) follow(at loc, n *yaml.Node) (loc, *yaml.Node, error) {
	n = deref(n)
	for range maxRefHops {
		ref, ok := scalar(lookup(n, "$ref"))
		if !ok {
			return at, n, nil
		}
		var err error
		if at, n, err = b.res.resolve(at.child("$ref"), ref); err != nil {
			return loc{}, nil, err
		}
	}
	return loc{}, nil, fmt.Errorf("%s: more than %d $refs in a row", at, maxRefHops)
}

// schema converts the schema n at at into a document, rendered and
// compiled.
func (b *builder) schema(at loc, n *yaml.Node) (*object, error) {
	return newConverter(b.res, b.d.dialect, b.d.opts.Open, b.notes).document(at, n)
}

// compile renders doc and compiles it as the judge does; name labels
// messages.
func compile(name string, doc *object) (json.RawMessage, *judge.Schema, error) {
	raw := render(doc)
	s, err := judge.Compile(name, raw)
	if err != nil {
		return nil, nil, fmt.Errorf("produced schema: %w", err)
	}
	return raw, s, nil
}
