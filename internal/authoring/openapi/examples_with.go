package openapi

import (
	"fmt"

	"github.com/toolcert/toolcert/internal/judge"
)

// ExamplesWith returns every example of the success the import would take
// that its schema accepts, each with the given values filled in as
// AnswerWith fills them: the answers an upstream that follows the
// description gives to one request.
func (op *Operation) ExamplesWith(values map[string]string) ([]Example, error) {
	r, err := op.success("")
	if err != nil {
		return nil, fmt.Errorf("examples: %w", err)
	}
	schema, err := judge.Compile(op.Method+" "+op.Path+" "+r.Status, r.Schema)
	if err != nil {
		return nil, fmt.Errorf("examples of %s %s: the %s answer's schema: %w", op.Method, op.Path, r.Status, err)
	}
	f := newFiller(values, op.Path)
	var out []Example
	for _, x := range r.Examples {
		if accepted(schema, x.Value) != nil {
			continue
		}
		body, err := fillExample(r.Schema, x.Value, f)
		if err != nil {
			return nil, err
		}
		if accepted(schema, body) != nil {
			continue // a filled value its schema refuses
		}
		out = append(out, Example{Name: x.Name, Value: body})
	}
	return out, nil
}
