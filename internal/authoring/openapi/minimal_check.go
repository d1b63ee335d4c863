package openapi

import (
	"errors"
	"fmt"
	"net/url"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// minimalURL is where Minimal's validator keeps the schema.
const minimalURL = "mem:///minimal.json"

// checker validates instances against subschemas of one document, the
// way the judge does: Draft 2020-12, formats asserted, nothing loaded.
type checker struct {
	c     *jsonschema.Compiler
	cache map[string]*jsonschema.Schema
}

// newChecker compiles nothing yet; doc is the document as plain values.
func newChecker(doc any) (*checker, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(refusing{})
	if err := c.AddResource(minimalURL, doc); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	if _, err := c.Compile(minimalURL); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return &checker{c: c, cache: map[string]*jsonschema.Schema{}}, nil
}

// valid checks v against the subschema at ptr.
func (ch *checker) valid(ptr string, v any) error {
	s, ok := ch.cache[ptr]
	if !ok {
		var err error
		if s, err = ch.c.Compile(minimalURL + "#" + (&url.URL{Fragment: ptr}).EscapedFragment()); err != nil {
			return fmt.Errorf("schema at %q: %w", ptr, err)
		}
		ch.cache[ptr] = s
	}
	return s.Validate(plainValue(v))
}

// refusing is a loader that loads nothing.
type refusing struct{}

// Load refuses url.
func (refusing) Load(url string) (any, error) {
	return nil, errors.New("minimal: loading " + url + " is refused")
}
