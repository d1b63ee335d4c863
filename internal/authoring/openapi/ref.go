package openapi

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pb33f/go-yaml"
)

// refAnnotations are the siblings of a $ref that describe rather than
// constrain: they are kept on the inlined schema, over its own.
var refAnnotations = wordSet("title", "description", "default", "deprecated", "readOnly", "writeOnly",
	"example", "examples", "$comment", "nullable", "x-nullable", "xml", "externalDocs")

// def is a schema kept in the document's $defs: the target of a recursive
// $ref (or of one past the inline limits).
type def struct {
	name     string
	at       loc
	node     *yaml.Node
	body     any
	allOfUse bool // referenced as a direct member of allOf
}

// key returns the identity of a $ref target: its source and pointer.
func (l loc) key() string { return l.src.name + "#" + l.ptr }

// refSchema converts a schema with a $ref: the target inlined (a 3.0 or
// 2.0 nullable one in an anyOf with null), its annotation siblings kept.
// A 3.1 $ref's other siblings apply with it, as an allOf; in 2.0 and 3.0
// they are ignored, as those versions say.
func (c *converter) refSchema(at loc, ps []pair, cx ctx) (result, error) {
	ref, ok := scalar(findPair(ps, "$ref"))
	if !ok {
		return result{}, fmt.Errorf("schema at %s: $ref is not a string", at)
	}
	target, tn, err := c.res.resolve(at.child("$ref"), ref)
	if err != nil {
		return result{}, err
	}
	var notes, constraints []pair
	for _, p := range ps {
		switch {
		case p.key == "$ref":
		case refAnnotations[p.key], strings.HasPrefix(p.key, "x-"):
			notes = append(notes, p)
		case c.dia == oas31:
			constraints = append(constraints, p)
		default:
			c.notes.add(at.child(p.key), "%s beside $ref is ignored, as OpenAPI %s says: dropped", p.key, c.versionName())
		}
	}
	if len(constraints) > 0 {
		inner, err := c.inline(target, tn, ctx{member: true, allOf: true, depth: cx.depth + 2})
		if err != nil {
			return result{}, err
		}
		r, err := c.plain(at, append(constraints, notes...), cx, []result{inner})
		r.ref = target.key()
		return r, err
	}
	return c.refInline(at, target, tn, notes, cx)
}

// refInline inlines target in place of a $ref with only annotation
// siblings.
func (c *converter) refInline(at, target loc, tn *yaml.Node, notes []pair, cx ctx) (result, error) {
	nullable := c.nullable(notes)
	inner := cx
	if nullable {
		inner = ctx{member: true, depth: cx.depth + 2}
	}
	r, err := c.inline(target, tn, inner)
	if err != nil {
		return result{}, err
	}
	o := asObject(r.v)
	c.annotate(o, at, notes)
	r.v = o
	if nullable {
		r = c.orNull(r, cx)
	}
	r.ref = target.key()
	return r, nil
}

// annotate sets the annotations of a $ref's siblings on o, the inlined
// target: the $ref's own example replaces the target's.
func (c *converter) annotate(o *object, at loc, ps []pair) {
	k := &keywords{c: c, at: at, out: &object{}}
	for _, p := range ps {
		switch {
		case p.key == "example", p.key == "examples":
			k.readOther(p)
		case annotationKeywords[p.key]:
			k.copyValue(p)
		}
	}
	if len(k.examples) > 0 {
		k.out.set("examples", k.examples)
	}
	for _, m := range k.out.members {
		o.set(m.key, m.val)
	}
	sortKeywords(o)
}

// versionName names the dialect in messages.
func (c *converter) versionName() string {
	if c.dia == oas2 {
		return "2.0"
	}
	return "3.0"
}

// inline converts the target of a $ref in place; a recursive one, or one
// past the inline limits, becomes a $ref into $defs.
func (c *converter) inline(target loc, tn *yaml.Node, cx ctx) (result, error) {
	key := target.key()
	if slices.Contains(c.stack, key) || cx.depth > maxInlineDepth || c.overBudget(target) {
		return c.defRef(key, target, tn, cx), nil
	}
	c.stack = append(c.stack, key)
	r, err := c.schema(target, tn, cx)
	c.stack = c.stack[:len(c.stack)-1]
	r.ref = key
	return r, err
}

// overBudget reports that inlining has made inlineBudget schemas, noting
// it once.
func (c *converter) overBudget(target loc) bool {
	if c.emitted <= inlineBudget {
		return false
	}
	if !c.noted {
		c.noted = true
		c.notes.add(target, "the schema is large: after %d inlined schemas, $refs are kept in $defs", inlineBudget)
	}
	return true
}

// defRef returns {"$ref": "#/$defs/name"} for target, queueing its body.
func (c *converter) defRef(key string, target loc, tn *yaml.Node, cx ctx) result {
	d := c.defs[key]
	if d == nil {
		d = &def{name: c.defName(target), at: target, node: tn}
		c.defs[key] = d
		c.order = append(c.order, d)
	}
	d.allOfUse = d.allOfUse || cx.allOf
	o := &object{}
	o.set("$ref", "#/$defs/"+d.name)
	return result{v: o, ref: key}
}

// defBodies converts every queued $defs body; a body may queue more.
func (c *converter) defBodies() error {
	for i := 0; i < len(c.order); i++ {
		d := c.order[i]
		saved := c.stack
		c.stack = []string{d.at.key()}
		r, err := c.schema(d.at, d.node, ctx{depth: 3})
		c.stack = saved
		if err != nil {
			return err
		}
		d.body = r.v
	}
	for _, d := range c.order {
		if o, ok := d.body.(*object); ok && d.allOfUse && o.has("properties") && !c.open {
			c.notes.add(d.at, "recursive schema kept in $defs and closed on its own: as a member of allOf it refuses members its siblings declare")
		}
	}
	return nil
}

// defName returns a free $defs name for target, from its last pointer
// token, made of letters, digits, '.', '_' and '-' only.
func (c *converter) defName(target loc) string {
	base := sanitizeName(lastToken(target.ptr))
	if base == "" {
		base = "schema"
	}
	name := base
	for i := 2; c.names[name]; i++ {
		name = fmt.Sprintf("%s-%d", base, i)
	}
	c.names[name] = true
	return name
}

// sanitizeName replaces every character of s that a plain URI fragment
// may not hold.
func sanitizeName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			return r
		}
		return '_'
	}, s)
}
