package corpus

import (
	"fmt"
	"sync"

	"github.com/toolcert/toolcert/internal/judge"
)

// schemaCache holds the schemas of a corpus compiled so far, by file. The
// zero value is ready to use; it is safe for concurrent use.
type schemaCache struct {
	mu    sync.Mutex
	byKey map[string]*compiledSchema
}

// compiledSchema is a schema file of the corpus, compiled, with its parsed
// document (for the key=value patterns and for lint).
type compiledSchema struct {
	schema *judge.Schema
	doc    any
}

// schema returns the schema file at name (slash-separated, relative to the
// corpus root), compiled with judge.Compile once per corpus. A file that is
// missing or does not compile is an error: the corpus is broken.
func (c *Corpus) schema(name string) (*compiledSchema, error) {
	c.schemas.mu.Lock()
	defer c.schemas.mu.Unlock()
	if s, ok := c.schemas.byKey[name]; ok {
		return s, nil
	}
	raw, err := c.Fixture(name)
	if err != nil {
		return nil, err
	}
	s, err := compileSchema(name, raw)
	if err != nil {
		return nil, err
	}
	if c.schemas.byKey == nil {
		c.schemas.byKey = map[string]*compiledSchema{}
	}
	c.schemas.byKey[name] = s
	return s, nil
}

// compileSchema compiles raw under name and keeps its parsed document.
func compileSchema(name string, raw []byte) (*compiledSchema, error) {
	sch, err := judge.Compile(name, raw)
	if err != nil {
		return nil, err
	}
	doc, err := judge.ParseJSON(raw, judge.Limits{MaxDepth: 256})
	if err != nil { // Compile parsed it the same way
		return nil, fmt.Errorf("parse schema %s: %w", name, err)
	}
	return &compiledSchema{schema: sch, doc: doc}, nil
}
