package judge

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// ErrOpenSchema is returned, wrapped, by [Closed] for a schema that lets
// unknown members through.
var ErrOpenSchema = errors.New("object schema is not closed")

// Closed checks that schemaJSON (strict JSON, nesting up to 256 levels) is
// closed: every object in it that declares "properties" also has
// "additionalProperties": false or "unevaluatedProperties": false, or sits
// in an "allOf", "anyOf" or "oneOf" of one with "unevaluatedProperties":
// false. The values of "enum", "const", "examples" and "default" are
// instances, not schemas, and are not looked into. The error wraps
// [ErrOpenSchema] and names the JSON pointer of the first open object,
// members visited in sorted order, depth first.
//
// Mirrors gate: every object of the document is looked at, not only the
// places the draft puts schemas, and a member named "enum", "const",
// "examples" or "default" is skipped wherever it is, a property of that
// name included.
func Closed(schemaJSON []byte) error {
	doc, err := ParseJSON(schemaJSON, Limits{MaxDepth: schemaDepth})
	if err != nil {
		return fmt.Errorf("closed schema: %w", err)
	}
	if at, open := firstOpen(doc, "", false); open {
		return fmt.Errorf("%w at %q", ErrOpenSchema, at)
	}
	return nil
}

// firstOpen returns the pointer of the first open object at or under node
// (at ptr) and true, or false when there is none. sealed tells that an
// enclosing schema closes node with unevaluatedProperties.
func firstOpen(node any, ptr string, sealed bool) (string, bool) {
	switch n := node.(type) {
	case []any:
		for i, item := range n {
			if at, open := firstOpen(item, ptr+"/"+strconv.Itoa(i), false); open {
				return at, true
			}
		}
	case map[string]any:
		return firstOpenMember(n, ptr, sealed)
	}
	return "", false
}

// firstOpenMember checks the object n itself, then its members.
func firstOpenMember(n map[string]any, ptr string, sealed bool) (string, bool) {
	seals := n["unevaluatedProperties"] == false
	_, declares := n["properties"]
	if declares && !sealed && !seals && n["additionalProperties"] != false {
		return ptr, true
	}
	for _, key := range slices.Sorted(maps.Keys(n)) {
		if isInstanceKeyword(key) {
			continue
		}
		at, open := firstOpenUnder(key, n[key], ptr+"/"+EscapePointerToken(key), sealed || seals)
		if open {
			return at, true
		}
	}
	return "", false
}

// firstOpenUnder checks the value of member key: the subschemas of an
// applicator array are sealed when their parent is or seals them; any
// other value is checked on its own.
func firstOpenUnder(key string, v any, ptr string, parentSeals bool) (string, bool) {
	items, isArray := v.([]any)
	if !isArray || !parentSeals || !isApplicator(key) {
		return firstOpen(v, ptr, false)
	}
	for i, item := range items {
		if at, open := firstOpen(item, ptr+"/"+strconv.Itoa(i), true); open {
			return at, true
		}
	}
	return "", false
}

// isApplicator reports whether key holds subschemas that
// unevaluatedProperties sees through.
func isApplicator(key string) bool {
	return key == "allOf" || key == "anyOf" || key == "oneOf"
}

// isInstanceKeyword reports whether key holds instances, not schemas.
func isInstanceKeyword(key string) bool {
	return key == "enum" || key == "const" || key == "examples" || key == "default"
}
