package openapi

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/toolcert/toolcert/internal/judge"
)

// Answer is a success an upstream that follows the description answers
// to a request of one operation.
type Answer struct {
	// Status is the success's status: 200, or the first 2xx declared
	// with a JSON body (200 for a 2XX range).
	Status int
	// ContentType is the success's JSON media type as the description
	// writes it; "" when it has no JSON body.
	ContentType string
	// Body is the answer's JSON document; nil when it has no JSON body.
	Body []byte
	// Made says the body was made from the schema: the description gives
	// no example its schema accepts.
	Made bool
}

// Answer returns the success the import would take (200, or the first
// 2xx with a JSON body): with the description's first example of it
// that its schema accepts, else one made from its schema that has every
// declared member, optional ones too (bounded in depth, a member that
// refers back to a schema it is inside left out), one element in each
// list, each string distinct from the others where its schema allows, so
// that a value seen later names the member it came from; valid against
// the schema. An operation whose 2xx answers have no JSON body answers
// the first of them, without a body.
func (op *Operation) Answer() (Answer, error) {
	return op.AnswerWith(nil)
}

// AnswerWith is Answer with given values, such as a request's path
// parameters by name: a member named like a key takes its value where
// its schema allows (see filler: petId=42 makes the id of the pet of GET
// /pets/{petId} 42, a number for an integer member), in the example as
// in a made body.
func (op *Operation) AnswerWith(values map[string]string) (Answer, error) {
	r, err := op.success("")
	if err != nil {
		if a, ok := op.bodiless(); ok {
			return a, nil
		}
		return Answer{}, fmt.Errorf("answer: %w", err)
	}
	a := Answer{Status: statusNumber(r.Status), ContentType: r.MediaType}
	f := newFiller(values, op.Path)
	if a.Body, err = op.answerExample(r, f); err != nil {
		return Answer{}, err
	}
	if a.Body != nil {
		return a, nil
	}
	body, err := generate(r.Schema, genOptions{full: true, values: f})
	if err != nil {
		body, err = generate(r.Schema, genOptions{values: f})
	}
	if err != nil {
		return Answer{}, fmt.Errorf("answer of %s %s: the %s answer has no example its schema accepts, and none can be made from it: %w", op.Method, op.Path, r.Status, err)
	}
	a.Body, a.Made = body, true
	return a, nil
}

// answerExample returns the first example of r its schema accepts,
// given values filled in; nil when there is none.
func (op *Operation) answerExample(r Response, f *filler) ([]byte, error) {
	schema, err := judge.Compile(op.Method+" "+op.Path+" "+r.Status, r.Schema)
	if err != nil {
		return nil, fmt.Errorf("answer of %s %s: the %s answer's schema: %w", op.Method, op.Path, r.Status, err)
	}
	for _, x := range r.Examples {
		if accepted(schema, x.Value) != nil {
			continue
		}
		if f == nil {
			return x.Value, nil
		}
		return fillExample(r.Schema, x.Value, f)
	}
	return nil, nil
}

// accepted checks an example against a compiled schema, as the import
// does.
func accepted(schema *judge.Schema, value []byte) error {
	doc, err := judge.ParseJSON(value, judge.Limits{MaxDepth: 256})
	if err != nil {
		return err
	}
	return schema.Validate(doc)
}

// fillExample returns example value of schema with f's values in the
// members named like them.
func fillExample(schema, value []byte, f *filler) ([]byte, error) {
	s, err := decode(schema)
	if err != nil {
		return nil, fmt.Errorf("answer: parse schema: %w", err)
	}
	ch, err := newChecker(plainValue(s))
	if err != nil {
		return nil, fmt.Errorf("answer: %w", err)
	}
	v, err := decode(value)
	if err != nil {
		return nil, fmt.Errorf("answer: parse example: %w", err)
	}
	f.fill(v, ch)
	return render(v), nil
}

// bodiless returns the first 2xx answer, declared without a JSON body,
// as an answer without one; false when there is none.
func (op *Operation) bodiless() (Answer, bool) {
	for _, r := range op.Responses {
		if strings.HasPrefix(r.Status, "2") && r.Schema == nil {
			return Answer{Status: statusNumber(r.Status)}, true
		}
	}
	return Answer{}, false
}

// statusNumber returns the status of a declared answer: its number, or
// the first of its range ("2XX" is 200).
func statusNumber(status string) int {
	if n, err := strconv.Atoi(status); err == nil {
		return n
	}
	return int(status[0]-'0') * 100
}
