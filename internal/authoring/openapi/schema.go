package openapi

import (
	"fmt"

	"github.com/pb33f/go-yaml"
	"github.com/toolcert/toolcert/protocol"
)

// Limits of one produced schema document.
const (
	// maxSchemaDepth is the deepest JSON nesting a schema may reach in the
	// output; the judge refuses documents past 256 levels, and examples
	// inside a schema nest further.
	maxSchemaDepth = 200
	// maxInlineDepth is the nesting past which a $ref is no longer inlined
	// but kept in $defs, where nesting starts again.
	maxInlineDepth = 120
	// inlineBudget is the number of schema objects past which $refs are no
	// longer inlined: inlining a description's shared schemas can grow
	// the output exponentially, and the validator's compile time grows
	// with the square of the schema objects (about 2 s for 20000, 0.1 s
	// for 5000).
	inlineBudget = 5000
	// maxSchemas is the number of schema objects past which conversion
	// fails: YAML aliases can make a small text stand for an enormous
	// schema.
	maxSchemas = 200000
)

// converter turns the OpenAPI schemas of one place of a description into
// one standalone Draft 2020-12 document. Use one converter per document.
type converter struct {
	res     *resolver
	dia     dialect
	open    bool
	notes   *noteSet
	stack   []string        // target keys of the $refs being inlined
	defs    map[string]*def // by target key
	order   []*def          // in the order first referenced
	names   map[string]bool // $defs names taken
	emitted int             // schema objects read so far
	noted   bool            // the inline budget note is written
}

// ctx is where a schema sits in the output.
type ctx struct {
	// member is set for a schema its parent closes: a direct member of
	// allOf, anyOf or oneOf (unevaluatedProperties sees through them), or
	// one whose closing would change its meaning (not, if).
	member bool
	// allOf is set for a direct member of allOf, whose siblings may
	// declare members it must let through.
	allOf bool
	depth int // JSON nesting level of the schema in the output
}

// result is one converted schema.
type result struct {
	v any // *object, or a boolean schema
	// props reports, for a member, that it or its own members declare
	// "properties": the first ancestor that is no member must close it.
	props bool
	ref   string // target key, when the schema is a $ref
}

// newConverter returns a converter for one schema document.
func newConverter(res *resolver, dia dialect, open bool, notes *noteSet) *converter {
	return &converter{res: res, dia: dia, open: open, notes: notes, defs: map[string]*def{}, names: map[string]bool{}}
}

// document converts the schema n at at into a standalone document:
// "$schema" first, then the schema, then "$defs" for recursive refs.
func (c *converter) document(at loc, n *yaml.Node) (*object, error) {
	r, err := c.schema(at, n, ctx{depth: 1})
	if err != nil {
		return nil, err
	}
	return c.standalone(r)
}

// documentOf is document for a schema given as its members (a 2.0
// parameter's schema keywords).
func (c *converter) documentOf(at loc, ps []pair) (*object, error) {
	c.emitted++
	r, err := c.plain(at, ps, ctx{depth: 1}, nil)
	if err != nil {
		return nil, err
	}
	return c.standalone(r)
}

// standalone makes r a document: "$schema", the schema, then the $defs.
func (c *converter) standalone(r result) (*object, error) {
	root := asObject(r.v)
	if err := c.defBodies(); err != nil {
		return nil, err
	}
	out := &object{}
	out.set("$schema", protocol.DraftURI)
	out.members = append(out.members, root.members...)
	if len(c.order) > 0 {
		defs := &object{}
		for _, d := range c.order {
			defs.set(d.name, d.body)
		}
		out.set("$defs", defs)
	}
	return out, nil
}

// schema converts the schema n at at.
func (c *converter) schema(at loc, n *yaml.Node, cx ctx) (result, error) {
	if cx.depth > maxSchemaDepth {
		return result{}, fmt.Errorf("schema at %s nests deeper than %d levels", at, maxSchemaDepth)
	}
	n = deref(n)
	if b, ok := isBool(n); ok {
		return result{v: b}, nil
	}
	ps, err := pairs(n, at.String())
	if err != nil {
		return result{}, fmt.Errorf("schema: %w", err)
	}
	if c.emitted++; c.emitted > maxSchemas {
		return result{}, fmt.Errorf("schema at %s: more than %d schemas", at, maxSchemas)
	}
	if hasKey(ps, "$ref") {
		return c.refSchema(at, ps, cx)
	}
	return c.plain(at, ps, cx, nil)
}

// plain converts a schema without $ref; pre are converted schemas that go
// first in its allOf. A nullable composition is wrapped in an anyOf with
// null.
func (c *converter) plain(at loc, ps []pair, cx ctx, pre []result) (result, error) {
	nullable := c.nullable(ps)
	if nullable && (hasKey(ps, "allOf") || hasKey(ps, "oneOf") || hasKey(ps, "anyOf")) {
		inner, err := c.body(at, ps, ctx{member: true, depth: cx.depth + 2}, false, pre)
		if err != nil {
			return result{}, err
		}
		return c.orNull(inner, cx), nil
	}
	return c.body(at, ps, cx, nullable, pre)
}

// body reads every keyword of ps, then finishes the schema.
func (c *converter) body(at loc, ps []pair, cx ctx, nullable bool, pre []result) (result, error) {
	k := &keywords{c: c, at: at, cx: cx, out: &object{}, pre: pre, groups: map[string][]result{}}
	for _, p := range ps {
		if err := k.read(p); err != nil {
			return result{}, err
		}
	}
	if len(pre) > 0 && !k.out.has("allOf") {
		k.setGroup("allOf", nil)
	}
	return k.finish(nullable), nil
}

// orNull wraps inner, a member, as {"anyOf": [inner, {"type": "null"}]},
// closed when inner needs it and nothing above closes it.
func (c *converter) orNull(inner result, cx ctx) result {
	null := &object{}
	null.set("type", "null")
	w := &object{}
	w.set("anyOf", []any{inner.v, null})
	r := result{v: w, ref: inner.ref}
	switch {
	case c.open:
	case cx.member:
		r.props = inner.props
	case inner.props:
		w.set("unevaluatedProperties", false)
	}
	return r
}

// nullable reports whether ps makes a schema nullable the way its dialect
// says it: nullable: true (3.0) or x-nullable: true (2.0).
func (c *converter) nullable(ps []pair) bool {
	key := "nullable"
	switch c.dia {
	case oas2:
		key = "x-nullable"
	case oas31:
		return false
	}
	for _, p := range ps {
		if b, ok := isBool(p.val); p.key == key && ok && b {
			return true
		}
	}
	return false
}

// asObject returns v as an object schema: true becomes {}, false
// {"not": {}}.
func asObject(v any) *object {
	switch t := v.(type) {
	case *object:
		return t
	case bool:
		o := &object{}
		if !t {
			o.set("not", &object{})
		}
		return o
	}
	return &object{}
}

// hasKey reports whether ps has a member key.
func hasKey(ps []pair, key string) bool {
	return findPair(ps, key) != nil
}

// findPair returns the value of member key of ps, or nil.
func findPair(ps []pair, key string) *yaml.Node {
	for _, p := range ps {
		if p.key == key {
			return p.val
		}
	}
	return nil
}
