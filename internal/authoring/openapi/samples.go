package openapi

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pb33f/go-yaml"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/toolcert/toolcert/internal/judge"
)

// sample is one example value of the description and where it is.
type sample struct {
	name string
	at   loc
	v    any
}

// value reads the example value n at at, noting one JSON cannot hold.
func (b *builder) value(name string, at loc, n *yaml.Node) (sample, bool) {
	v, err := instance(n)
	if err != nil {
		b.notes.add(at, "value dropped: %v", err)
		return sample{}, false
	}
	return sample{name: name, at: at, v: v}, true
}

// exampleMap reads a 3.x examples map (name to Example object, or a $ref
// to one): each entry's value; an externalValue is noted, never fetched.
func (b *builder) exampleMap(at loc, n *yaml.Node) ([]sample, error) {
	if n == nil {
		return nil, nil
	}
	ps, err := pairs(n, at.String())
	if err != nil {
		return nil, err
	}
	var out []sample
	for _, p := range ps {
		eat, e, err := b.follow(at.child(p.key), p.val)
		if err != nil {
			return nil, err
		}
		if v := lookup(e, "value"); v != nil {
			if s, ok := b.value(p.key, eat.child("value"), v); ok {
				out = append(out, s)
			}
		} else if lookup(e, "externalValue") != nil {
			b.notes.add(eat.child("externalValue"), "externalValue is not fetched: example not carried over")
		}
	}
	return out, nil
}

// schemaSamples returns the schema's own examples (example, or the
// examples list), following $refs while the schema has none of its own.
func (b *builder) schemaSamples(at loc, n *yaml.Node) []sample {
	for range maxRefHops {
		n = deref(n)
		if s := b.ownSamples(at, n); len(s) > 0 {
			return s
		}
		ref, ok := scalar(lookup(n, "$ref"))
		if !ok {
			return nil
		}
		var err error
		if at, n, err = b.res.resolve(at.child("$ref"), ref); err != nil {
			return nil // the schema conversion reports it
		}
	}
	return nil
}

// ownSamples reads the example and examples keywords of schema n.
func (b *builder) ownSamples(at loc, n *yaml.Node) []sample {
	var out []sample
	if list := deref(lookup(n, "examples")); list != nil && list.Kind == yaml.SequenceNode {
		for i, item := range list.Content {
			if s, ok := b.value("schema-example-"+strconv.Itoa(i+1), at.child("examples").child(strconv.Itoa(i)), item); ok {
				out = append(out, s)
			}
		}
	}
	if v := lookup(n, "example"); v != nil {
		if s, ok := b.value("schema-example", at.child("example"), v); ok {
			out = append(out, s)
		}
	}
	if len(out) == 1 {
		out[0].name = "schema-example"
	}
	return out
}

// check validates each sample against s, noting one that fails: the
// sample is still returned, for the writer to decide.
func (b *builder) check(s *judge.Schema, samples []sample) {
	if s == nil {
		return
	}
	for _, smp := range samples {
		doc, err := judge.ParseJSON(render(smp.v), judge.Limits{MaxDepth: maxInstanceDepth + 1})
		if err == nil {
			err = s.Validate(doc)
		}
		if err != nil {
			b.notes.add(smp.at, "example does not validate against the produced schema: %s", validationMessage(err))
		}
	}
}

// examples returns the samples as Examples, names made unique.
func examples(samples []sample) []Example {
	used := map[string]bool{}
	var out []Example
	for _, s := range samples {
		name := s.name
		for i := 2; used[name]; i++ {
			name = fmt.Sprintf("%s-%d", s.name, i)
		}
		used[name] = true
		out = append(out, Example{Name: name, Value: render(s.v)})
	}
	return out
}

// maxCauses is how many failures a validation message lists.
const maxCauses = 3

// validationMessage says on one line where and why an instance failed:
// "at /count: minimum: got -1, want 0".
func validationMessage(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return strings.Join(strings.Fields(err.Error()), " ")
	}
	var parts []string
	for _, u := range ve.BasicOutput().Errors {
		if u.Error == nil || len(parts) == maxCauses {
			continue
		}
		at := u.InstanceLocation
		if at == "" {
			at = "/"
		}
		parts = append(parts, "at "+at+": "+strings.Join(strings.Fields(u.Error.String()), " "))
	}
	return strings.Join(parts, "; ")
}
