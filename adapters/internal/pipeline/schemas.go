package pipeline

import (
	"embed"
	"fmt"
	"sync"

	"github.com/toolcert/toolcert/gate"
)

// schemaFS holds the pinned schemas: per tool <tool>.args.json,
// <tool>.contract.json and one <tool>.vendor.<version>.json per supported
// upstream version (request_refund: request_refund.order.v1.json, the
// order record it checks a proposal against).
//
//go:embed schemas/*.json
var schemaFS embed.FS

// Schema returns the pinned schema document of tool for kind "args",
// "contract" or "vendor.<version>" ("vendor.v1", and "vendor.v2" for the
// tools whose [Versions] include v2); request_refund's upstream schema is
// "order.v1", and send_email and purge_cache have none.
func Schema(tool, kind string) ([]byte, error) {
	b, err := schemaFS.ReadFile("schemas/" + tool + "." + kind + ".json")
	if err != nil {
		return nil, fmt.Errorf("schema %s %s: %w", tool, kind, err)
	}
	return b, nil
}

// toolSchemas are the compiled schemas of one tool: vendor holds one per
// supported upstream version, by version name.
type toolSchemas struct {
	args, contract *gate.Schema
	vendor         map[string]*gate.Schema
}

// compileSchemas compiles the schemas of t: arguments (after s.argsSchema),
// contract and the vendor schema of every version (after s.vendorSchema).
func compileSchemas(t tool, s settings) (toolSchemas, error) {
	var out toolSchemas
	var err error
	argsTransform := func(b []byte) []byte { return s.argsSchema(t.name, b) }
	if out.args, err = compileSchema(t.name, "args", argsTransform); err != nil {
		return out, err
	}
	if out.contract, err = compileSchema(t.name, "contract", nil); err != nil {
		return out, err
	}
	out.vendor = make(map[string]*gate.Schema, len(t.versions))
	for name, v := range t.versions {
		if out.vendor[name], err = compileSchema(t.name, v.schema, s.vendorSchema); err != nil {
			return out, err
		}
	}
	return out, nil
}

// compileSchema compiles the pinned schema of tool for kind, after
// transform when it is not nil.
func compileSchema(tool, kind string, transform func([]byte) []byte) (*gate.Schema, error) {
	b, err := Schema(tool, kind)
	if err != nil {
		return nil, err
	}
	if transform != nil {
		b = transform(b)
	}
	name := tool + "." + kind
	key := name + "\x00" + string(b)
	if s, ok := compiled.Load(key); ok {
		return s.(*gate.Schema), nil
	}
	s, err := gate.Compile(name, b)
	if err != nil {
		return nil, err
	}
	compiled.Store(key, s)
	return s, nil
}

// compiled holds each schema compiled in this process, by name and
// document: the adapters of a process (the lanes of an in-process run)
// compile each once. A compiled schema is read-only.
var compiled sync.Map
