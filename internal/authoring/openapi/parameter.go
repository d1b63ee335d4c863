package openapi

import (
	"slices"
	"strconv"

	"github.com/pb33f/go-yaml"
)

// serializationKeywords say how a 3.x parameter is written in the URL;
// the corpus has no place for them.
var serializationKeywords = []string{"style", "explode", "allowReserved", "allowEmptyValue"}

// swaggerParamKeys are the members of a 2.0 parameter that are not its
// schema.
var swaggerParamKeys = wordSet("name", "in", "required", "allowEmptyValue", "x-example")

// located is a node and where it is.
type located struct {
	at loc
	n  *yaml.Node
}

// parameters returns e's path and query parameters: the path item's,
// then the operation's, one of the operation replacing the path item's
// of the same name and location.
func (b *builder) parameters(e entry) ([]Parameter, error) {
	var list []located
	index := map[string]int{}
	for _, src := range []located{{e.item.child("parameters"), lookup(e.itemNode, "parameters")}, {e.op.child("parameters"), lookup(e.opNode, "parameters")}} {
		seq := deref(src.n)
		if seq == nil || seq.Kind != yaml.SequenceNode {
			continue
		}
		for i, item := range seq.Content {
			at, n, err := b.follow(src.at.child(strconv.Itoa(i)), item)
			if err != nil {
				return nil, err
			}
			key := stringOf(n, "in") + "\x00" + stringOf(n, "name")
			if j, ok := index[key]; ok {
				list[j] = located{at, n}
				continue
			}
			index[key] = len(list)
			list = append(list, located{at, n})
		}
	}
	var out []Parameter
	for _, l := range list {
		p, ok, err := b.parameter(l.at, l.n)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b Parameter) int { return inRank(a.In) - inRank(b.In) })
	return out, nil
}

// inRank puts path parameters before query ones.
func inRank(in string) int {
	if in == "path" {
		return 0
	}
	return 1
}

// parameter converts one path or query parameter; false for another.
func (b *builder) parameter(at loc, n *yaml.Node) (Parameter, bool, error) {
	p := Parameter{Name: stringOf(n, "name"), In: stringOf(n, "in"), Required: boolOf(n, "required")}
	switch p.In {
	case "path", "query":
	case "body", "formData":
		b.notes.add(at, "the request body (parameter %s in %s) is not carried over", p.Name, p.In)
		return p, false, nil
	default:
		b.notes.add(at, "%s parameter %s is not carried over", p.In, p.Name)
		return p, false, nil
	}
	if p.In == "path" && !p.Required {
		b.notes.add(at, "path parameter %s is not marked required: a path parameter always is", p.Name)
		p.Required = true
	}
	for _, key := range serializationKeywords {
		if lookup(n, key) != nil {
			b.notes.add(at.child(key), "%s (how the parameter is written in the URL) is not carried over", key)
		}
	}
	doc, schemaAt, schemaNode, err := b.parameterSchema(at, n)
	if err != nil {
		return p, false, err
	}
	raw, compiled, err := compile("parameter "+p.Name, doc)
	if err != nil {
		return p, false, err
	}
	p.Schema = raw
	if s, ok := b.parameterSample(at, n, schemaAt, schemaNode); ok {
		b.check(compiled, []sample{s})
		p.Example = render(s.v)
	}
	return p, true, nil
}

// parameterSchema converts the parameter's schema: its schema (3.x), the
// schema of its content, or (2.0) the parameter itself, whose members
// other than its name and location are schema keywords. The parameter's
// description goes on the schema when it has none.
func (b *builder) parameterSchema(at loc, n *yaml.Node) (*object, loc, *yaml.Node, error) {
	c := newConverter(b.res, b.d.dialect, b.d.opts.Open, b.notes)
	if b.d.dialect == oas2 {
		ps, err := pairs(n, at.String())
		if err != nil {
			return nil, at, nil, err
		}
		ps = slices.DeleteFunc(ps, func(p pair) bool { return swaggerParamKeys[p.key] })
		doc, err := c.documentOf(at, ps)
		return doc, at, nil, err
	}
	schemaAt, s := at.child("schema"), lookup(n, "schema")
	if s == nil {
		schemaAt, s = b.contentSchema(at, n)
	}
	if s == nil {
		b.notes.add(at, "the parameter has no schema: any value is accepted")
		s = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	}
	doc, err := c.document(schemaAt, s)
	if err == nil && !doc.has("description") && stringOf(n, "description") != "" {
		doc.set("description", stringOf(n, "description"))
		sortKeywords(doc)
	}
	return doc, schemaAt, s, err
}

// contentSchema returns the schema of a 3.x parameter's content, noting
// that its media type is not carried over.
func (b *builder) contentSchema(at loc, n *yaml.Node) (loc, *yaml.Node) {
	content := deref(lookup(n, "content"))
	if content == nil || content.Kind != yaml.MappingNode || len(content.Content) < 2 {
		return at, nil
	}
	mt, _ := scalar(content.Content[0])
	mat := at.child("content").child(mt)
	b.notes.add(mat, "the parameter is written as %s content: only its schema is carried over", mt)
	return mat.child("schema"), lookup(content.Content[1], "schema")
}

// parameterSample returns the parameter's example: its example, its
// first examples entry, (2.0) its x-example, or its schema's own.
func (b *builder) parameterSample(at loc, n *yaml.Node, schemaAt loc, schemaNode *yaml.Node) (sample, bool) {
	if v := lookup(n, "example"); v != nil {
		return b.value("example", at.child("example"), v)
	}
	if v := lookup(n, "x-example"); v != nil && b.d.dialect == oas2 {
		return b.value("example", at.child("x-example"), v)
	}
	if m := lookup(n, "examples"); m != nil {
		if list, err := b.exampleMap(at.child("examples"), m); err == nil && len(list) > 0 {
			return list[0], true
		}
	}
	if schemaNode == nil {
		schemaAt, schemaNode = at, n
	}
	if list := b.schemaSamples(schemaAt, schemaNode); len(list) > 0 {
		return list[0], true
	}
	return sample{}, false
}
