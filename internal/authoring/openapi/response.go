package openapi

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/pb33f/go-yaml"
)

// Response status groups, in the order Responses lists them.
const (
	statusCode = iota
	statusRange
	statusDefault
	statusInvalid
)

// responses returns every declared response of e, sorted.
func (b *builder) responses(e entry) ([]Response, error) {
	at := e.op.child("responses")
	n := lookup(e.opNode, "responses")
	if n == nil {
		b.notes.add(at, "the operation declares no responses")
		return nil, nil
	}
	ps, err := pairs(n, at.String())
	if err != nil {
		return nil, err
	}
	var out []Response
	for _, p := range ps {
		if strings.HasPrefix(p.key, "x-") {
			continue
		}
		if g, _ := statusOrder(p.key); g == statusInvalid {
			b.notes.add(at.child(p.key), "%q is not a status, a range or default: not carried over", p.key)
			continue
		}
		r, err := b.response(e, at.child(p.key), p.key, p.val)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(a, b Response) int {
		ga, na := statusOrder(a.Status)
		gb, nb := statusOrder(b.Status)
		return cmp.Or(ga-gb, na-nb)
	})
	return out, nil
}

// statusOrder returns the group of status and its number within it.
func statusOrder(status string) (group, num int) {
	switch {
	case status == "default":
		return statusDefault, 0
	case len(status) != 3:
		return statusInvalid, 0
	case strings.EqualFold(status[1:], "XX") && status[0] >= '1' && status[0] <= '5':
		return statusRange, int(status[0] - '0')
	}
	n, err := strconv.Atoi(status)
	if err != nil || n < 100 || n > 599 {
		return statusInvalid, 0
	}
	return statusCode, n
}

// response converts one response.
func (b *builder) response(e entry, at loc, status string, n *yaml.Node) (Response, error) {
	at, n, err := b.follow(at, n)
	if err != nil {
		return Response{}, err
	}
	if lookup(n, "headers") != nil {
		b.notes.add(at.child("headers"), "response headers are not carried over")
	}
	var body responseBody
	if b.d.dialect == oas2 {
		body, err = b.swaggerBody(e, at, n)
	} else {
		body, err = b.contentBody(at, n)
	}
	if err != nil {
		return Response{}, err
	}
	r := Response{Status: status, MediaType: body.mediaType}
	if body.schema != nil {
		doc, err := b.schema(body.schemaAt, body.schema)
		if err != nil {
			return Response{}, err
		}
		raw, compiled, err := compile("response "+status, doc)
		if err != nil {
			return Response{}, err
		}
		r.Schema = raw
		body.samples = append(body.samples, b.schemaSamples(body.schemaAt, body.schema)...)
		b.check(compiled, body.samples)
	}
	r.Examples = examples(body.samples)
	return r, nil
}

// responseBody is what a response says of its JSON body.
type responseBody struct {
	mediaType string
	schemaAt  loc
	schema    *yaml.Node
	samples   []sample
}

// contentBody reads the JSON body of a 3.x response from its content.
func (b *builder) contentBody(at loc, n *yaml.Node) (responseBody, error) {
	content := lookup(n, "content")
	if content == nil {
		return responseBody{}, nil
	}
	cat := at.child("content")
	ps, err := pairs(content, cat.String())
	if err != nil {
		return responseBody{}, err
	}
	keys := make([]string, len(ps))
	for i, p := range ps {
		keys[i] = p.key
	}
	chosen := chooseJSON(keys)
	for i, k := range keys {
		if i != chosen {
			b.notes.add(cat.child(k), "media type %s is not carried over (the body is read as %s)", k, orNone(keys, chosen))
		}
	}
	if chosen < 0 {
		return responseBody{}, nil
	}
	mat, media, err := b.follow(cat.child(keys[chosen]), ps[chosen].val)
	if err != nil {
		return responseBody{}, err
	}
	body := responseBody{mediaType: keys[chosen], schemaAt: mat.child("schema"), schema: lookup(media, "schema")}
	if v := lookup(media, "example"); v != nil {
		if s, ok := b.value("example", mat.child("example"), v); ok {
			body.samples = append(body.samples, s)
		}
	}
	more, err := b.exampleMap(mat.child("examples"), lookup(media, "examples"))
	body.samples = append(body.samples, more...)
	return body, err
}

// swaggerBody reads the JSON body of a 2.0 response: its schema, and its
// example for the JSON type the operation produces.
func (b *builder) swaggerBody(e entry, at loc, n *yaml.Node) (responseBody, error) {
	schema := lookup(n, "schema")
	produces := b.produces(e)
	chosen := chooseJSON(produces)
	body := responseBody{schemaAt: at.child("schema"), schema: schema}
	switch {
	case schema == nil:
	case chosen >= 0:
		body.mediaType = produces[chosen]
	case len(produces) == 0:
		body.mediaType = "application/json"
		b.notes.add(e.op, "the operation produces no media type: application/json is assumed")
	default:
		b.notes.add(at.child("schema"), "the operation produces no JSON media type (%s): the body is not carried over", strings.Join(produces, ", "))
		return responseBody{}, nil
	}
	exs := deref(lookup(n, "examples"))
	if exs == nil || exs.Kind != yaml.MappingNode {
		return body, nil
	}
	for i := 0; i+1 < len(exs.Content); i += 2 {
		mt, _ := scalar(exs.Content[i])
		eat := at.child("examples").child(mt)
		if mt != body.mediaType {
			b.notes.add(eat, "example for %s is not carried over", mt)
			continue
		}
		if s, ok := b.value("example", eat, exs.Content[i+1]); ok {
			body.samples = append(body.samples, s)
		}
	}
	return body, nil
}

// produces returns the media types a 2.0 operation produces: its own, or
// the description's.
func (b *builder) produces(e entry) []string {
	list := deref(lookup(e.opNode, "produces"))
	if list == nil {
		list = deref(lookup(b.d.root, "produces"))
	}
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil
	}
	var out []string
	for _, item := range list.Content {
		if s, ok := scalar(item); ok {
			out = append(out, s)
		}
	}
	return out
}

// chooseJSON returns the index of the media type a body is read as:
// application/json, else the first other JSON type (any "+json"); -1
// when none is JSON.
func chooseJSON(types []string) int {
	first := -1
	for i, t := range types {
		base := strings.ToLower(strings.TrimSpace(strings.SplitN(t, ";", 2)[0]))
		if base == "application/json" {
			return i
		}
		if first < 0 && strings.HasSuffix(base, "+json") {
			first = i
		}
	}
	return first
}

// orNone names the chosen media type, or says there is none.
func orNone(types []string, chosen int) string {
	if chosen < 0 {
		return "none: no JSON media type"
	}
	return types[chosen]
}
