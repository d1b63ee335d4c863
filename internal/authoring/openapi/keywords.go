package openapi

import (
	"regexp"
	"strings"

	"github.com/pb33f/go-yaml"
	"github.com/toolcert/toolcert/protocol"
)

// Keyword groups, by what conversion does with them.
var (
	// annotationKeywords are copied as written.
	annotationKeywords = wordSet("title", "description", "default", "deprecated", "readOnly", "writeOnly",
		"$comment", "contentEncoding", "contentMediaType", "enum", "const", "dependentRequired", "uniqueItems")
	// numberKeywords take a number, copied as its literal.
	numberKeywords = wordSet("multipleOf", "maximum", "minimum", "maxLength", "minLength", "maxItems", "minItems",
		"maxProperties", "minProperties", "minContains", "maxContains")
	// ownKeywords hold one subschema that applies to another instance (an
	// item, a name, decoded content): it closes itself.
	ownKeywords = wordSet("contains", "propertyNames", "unevaluatedItems", "contentSchema", "additionalItems")
	// inPlaceKeywords hold a subschema that applies to the same instance:
	// the parent closes it, as for allOf.
	inPlaceKeywords = wordSet("then", "else")
	// invertingKeywords hold a subschema whose closing would change what
	// the parent matches: it stays open.
	invertingKeywords = wordSet("not", "if")
	// groupKeywords hold an array of members the parent closes.
	groupKeywords = wordSet("allOf", "anyOf", "oneOf")
	// silentKeywords are dropped without a Note: documentation, or
	// definitions the conversion inlines where they are used.
	silentKeywords = wordSet("xml", "externalDocs", "$defs", "definitions", "nullable", "x-nullable")
	// refusedKeywords are dropped with a Note: they name or find schemas by
	// identifiers the standalone document does not keep.
	refusedKeywords = wordSet("$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveRef",
		"$recursiveAnchor", "$vocabulary", "$schema", "dependencies")
)

// wordSet returns a set of the words.
func wordSet(words ...string) map[string]bool {
	s := make(map[string]bool, len(words))
	for _, w := range words {
		s[w] = true
	}
	return s
}

// keywords is one schema being read: its output and what its finish
// step needs.
type keywords struct {
	c           *converter
	at          loc
	cx          ctx
	out         *object
	pre         []result            // go first in allOf
	groups      map[string][]result // allOf/anyOf/oneOf members, for the discriminator
	types       []string
	examples    []any
	format      *pair
	exclusive   []pair // 2.0 and 3.0 boolean exclusiveMinimum/Maximum
	disc        *pair
	memberProps bool // a member declares properties: this schema closes it
	addlFalse   bool // additionalProperties: false
}

// read converts one keyword into k.out.
func (k *keywords) read(p pair) error {
	switch {
	case annotationKeywords[p.key]:
		k.copyValue(p)
	case numberKeywords[p.key]:
		k.number(p)
	case groupKeywords[p.key]:
		return k.group(p)
	case ownKeywords[p.key]:
		return k.sub(p, ctx{depth: k.cx.depth + 1}, false)
	case inPlaceKeywords[p.key]:
		return k.sub(p, ctx{member: true, depth: k.cx.depth + 1}, true)
	case invertingKeywords[p.key]:
		return k.sub(p, ctx{member: true, depth: k.cx.depth + 1}, false)
	case p.key == "properties", p.key == "patternProperties", p.key == "dependentSchemas":
		return k.schemaMap(p)
	case p.key == "items":
		return k.items(p)
	case p.key == "prefixItems":
		return k.tuple(p, "prefixItems")
	case p.key == "additionalProperties", p.key == "unevaluatedProperties":
		return k.openness(p)
	default:
		k.readOther(p)
	}
	return nil
}

// readOther handles the keywords conversion rewrites, keeps for finish,
// or drops.
func (k *keywords) readOther(p pair) {
	switch {
	case p.key == "type":
		k.typ(p)
	case p.key == "example":
		k.example(p)
	case p.key == "examples":
		k.examplesList(p)
	case p.key == "format":
		k.format = &p
	case p.key == "exclusiveMinimum", p.key == "exclusiveMaximum":
		k.exclusiveBound(p)
	case p.key == "pattern":
		k.pattern(p)
	case p.key == "required":
		k.required(p)
	case p.key == "discriminator":
		k.disc = &p
	case p.key == "collectionFormat":
		k.note(p, "collectionFormat %s has no JSON Schema counterpart: how the array is written in the request is not carried over", deref(p.val).Value)
	case p.key == "nullable" && k.c.dia != oas30, p.key == "x-nullable" && k.c.dia != oas2:
		k.note(p, "%s is not a keyword of this OpenAPI version: ignored", p.key)
	case silentKeywords[p.key], strings.HasPrefix(p.key, "x-"):
	case p.key == "$schema" && deref(p.val).Value == protocol.DraftURI:
	case refusedKeywords[p.key]:
		k.note(p, "%s is not carried into the standalone schema: dropped", p.key)
	default:
		k.note(p, "unknown keyword %s: dropped", p.key)
	}
}

// note records a note at keyword p.
func (k *keywords) note(p pair, format string, args ...any) {
	k.c.notes.add(k.at.child(p.key), format, args...)
}

// copyValue copies p's value as JSON, when it has the kind the draft's
// meta-schema asks of the keyword (a wrong one would not compile).
func (k *keywords) copyValue(p pair) {
	v, ok := k.value(p, p.val)
	if !ok {
		return
	}
	if want := annotationKinds[p.key]; want != "" && kindOf(v) != want {
		k.note(p, "%s is not %s: dropped", p.key, want)
		return
	}
	k.out.set(p.key, v)
}

// annotationKinds are the kinds of value copied keywords take; a keyword
// not listed takes any value.
var annotationKinds = map[string]string{
	"title": "a string", "description": "a string", "$comment": "a string",
	"contentEncoding": "a string", "contentMediaType": "a string",
	"deprecated": "a boolean", "readOnly": "a boolean", "writeOnly": "a boolean", "uniqueItems": "a boolean",
	"enum": "an array", "dependentRequired": "an object",
}

// kindOf names the kind of JSON value v.
func kindOf(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case *object:
		return "an object"
	case number:
		return "a number"
	}
	return "null"
}

// value converts n, a value of keyword p, noting one JSON cannot hold.
func (k *keywords) value(p pair, n *yaml.Node) (any, bool) {
	v, err := instance(n)
	if err != nil {
		k.note(p, "value dropped: %v", err)
		return nil, false
	}
	return v, true
}

// number copies a numeric keyword.
func (k *keywords) number(p pair) {
	v, ok := k.value(p, p.val)
	if !ok {
		return
	}
	n, isNum := v.(number)
	if !isNum {
		k.note(p, "%s is not a number: dropped", p.key)
		return
	}
	r, exact := ratOf(string(n))
	switch {
	case countKeywords[p.key] && (!exact || !r.IsInt() || r.Sign() < 0):
		k.note(p, "%s is not a non-negative integer: dropped", p.key)
	case p.key == "multipleOf" && (!exact || r.Sign() <= 0):
		k.note(p, "multipleOf is not a number above 0: dropped")
	default:
		k.out.set(p.key, v)
	}
}

// countKeywords take a non-negative integer.
var countKeywords = wordSet("maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties",
	"minContains", "maxContains")

// typ reads type: one name, or (3.1) an array of names.
func (k *keywords) typ(p pair) {
	n := deref(p.val)
	var names []string
	if n.Kind == yaml.ScalarNode {
		names = []string{n.Value}
	} else if n.Kind == yaml.SequenceNode {
		for _, item := range n.Content {
			if s, ok := scalar(item); ok {
				names = append(names, s)
			}
		}
	}
	for _, t := range names {
		if t == "file" {
			k.note(p, "type file (an upload) has no JSON Schema counterpart: type dropped")
			return
		}
	}
	if len(names) == 0 {
		k.note(p, "type is neither a name nor a list of names: dropped")
	}
	k.types = names
}

// example reads the OpenAPI example keyword into examples.
func (k *keywords) example(p pair) {
	if v, ok := k.value(p, p.val); ok {
		k.examples = append(k.examples, v)
	}
}

// examplesList reads the JSON Schema examples keyword, an array.
func (k *keywords) examplesList(p pair) {
	n := deref(p.val)
	if n.Kind != yaml.SequenceNode {
		k.note(p, "examples is not an array (a schema's examples are a list of values): dropped")
		return
	}
	for _, item := range n.Content {
		if v, ok := k.value(p, item); ok {
			k.examples = append(k.examples, v)
		}
	}
}

// exclusiveBound keeps a numeric (3.1) bound, and a boolean one (2.0, 3.0)
// for finish to fold into its minimum or maximum.
func (k *keywords) exclusiveBound(p pair) {
	if _, ok := isBool(p.val); ok {
		k.exclusive = append(k.exclusive, p)
		return
	}
	k.number(p)
}

// pattern copies a pattern the validator's regular expressions (Go's
// RE2) accept; another (lookaround, backreferences) is dropped.
func (k *keywords) pattern(p pair) {
	s, ok := scalar(p.val)
	if !ok {
		k.note(p, "pattern is not a string: dropped")
		return
	}
	if _, err := regexp.Compile(s); err != nil {
		k.note(p, "pattern %q is not a regular expression the validator runs (RE2): dropped: %v", s, err)
		return
	}
	k.out.set("pattern", s)
}

// required copies the list of required member names.
func (k *keywords) required(p pair) {
	n := deref(p.val)
	ok := n.Kind == yaml.SequenceNode
	for _, item := range n.Content {
		ok = ok && deref(item).Kind == yaml.ScalarNode && deref(item).ShortTag() == "!!str"
	}
	if !ok {
		k.note(p, "required is not a list of member names (list a member in its parent's required): dropped")
		return
	}
	k.copyValue(p)
}
