package gate

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// ErrOpenSchema is returned (wrapped) by [Closed] for an object schema that
// lets unknown members through.
var ErrOpenSchema = errors.New("object schema is not closed")

// Closed checks that schemaJSON is closed: every subschema that declares
// "properties" also has "additionalProperties": false or
// "unevaluatedProperties": false, or sits (through allOf, anyOf, oneOf)
// under a schema with "unevaluatedProperties": false. The error names the
// JSON pointer of the first open subschema.
func Closed(schemaJSON []byte) error {
	doc, err := ParseJSON(schemaJSON, Limits{MaxDepth: 256})
	if err != nil {
		return fmt.Errorf("closed schema: %w", err)
	}
	return closedAt(doc, "", false)
}

// closedAt checks node at ptr; sealed tells whether an enclosing schema
// closes it with unevaluatedProperties.
func closedAt(node any, ptr string, sealed bool) error {
	switch n := node.(type) {
	case []any:
		for i, v := range n {
			if err := closedAt(v, fmt.Sprintf("%s/%d", ptr, i), false); err != nil {
				return err
			}
		}
		return nil
	case map[string]any:
		unevaluated := n["unevaluatedProperties"] == false
		if _, ok := n["properties"]; ok && !sealed && !unevaluated && n["additionalProperties"] != false {
			return fmt.Errorf("%w at %q", ErrOpenSchema, ptr)
		}
		names := make([]string, 0, len(n))
		for k := range n {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			childSealed := (k == "allOf" || k == "anyOf" || k == "oneOf") && (sealed || unevaluated)
			if err := closedMembers(n[k], ptr+"/"+escapePointer(k), k, childSealed); err != nil {
				return err
			}
		}
	}
	return nil
}

// closedMembers checks the value of keyword k: the subschemas of an
// applicator array inherit sealed, everything else is checked on its own.
func closedMembers(v any, ptr, k string, sealed bool) error {
	arr, ok := v.([]any)
	if !ok || !sealed {
		if k == "enum" || k == "const" || k == "examples" || k == "default" {
			return nil // instances, not schemas
		}
		return closedAt(v, ptr, false)
	}
	for i, s := range arr {
		if err := closedAt(s, fmt.Sprintf("%s/%d", ptr, i), true); err != nil {
			return err
		}
	}
	return nil
}

// escapePointer escapes a JSON pointer token.
func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
