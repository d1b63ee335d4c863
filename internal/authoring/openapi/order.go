package openapi

import (
	"slices"
)

// keywordOrder is the order keywords are written in: identity and
// annotations, then the type and its constraints, object and array
// structure, composition, and the examples and definitions last.
var keywordOrder = []string{
	"$schema", "$ref", "title", "description", "$comment", "deprecated", "readOnly", "writeOnly",
	"type", "const", "enum", "format", "contentEncoding", "contentMediaType", "contentSchema",
	"multipleOf", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum",
	"minLength", "maxLength", "pattern",
	"prefixItems", "items", "contains", "minContains", "maxContains", "minItems", "maxItems", "uniqueItems", "unevaluatedItems",
	"required", "properties", "patternProperties", "additionalProperties", "propertyNames",
	"dependentRequired", "dependentSchemas", "minProperties", "maxProperties",
	"allOf", "anyOf", "oneOf", "not", "if", "then", "else",
	"unevaluatedProperties", "default", "examples", "$defs",
}

// keywordRank maps a keyword to its place in keywordOrder.
var keywordRank = func() map[string]int {
	m := make(map[string]int, len(keywordOrder))
	for i, k := range keywordOrder {
		m[k] = i
	}
	return m
}()

// sortKeywords puts the members of schema o in keywordOrder; a member it
// does not list keeps its place after them.
func sortKeywords(o *object) {
	slices.SortStableFunc(o.members, func(a, b member) int {
		return rank(a.key) - rank(b.key)
	})
}

// rank returns the place of keyword key.
func rank(key string) int {
	if r, ok := keywordRank[key]; ok {
		return r
	}
	return len(keywordOrder)
}
