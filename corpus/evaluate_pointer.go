package corpus

import (
	"strconv"
	"strings"
)

// validPointer reports whether ptr is an RFC 6901 JSON pointer: empty, or
// "/"-separated tokens where every "~" is followed by "0" or "1".
func validPointer(ptr string) bool {
	if ptr == "" {
		return true
	}
	if !strings.HasPrefix(ptr, "/") {
		return false
	}
	for i := 0; i < len(ptr); i++ {
		if ptr[i] == '~' && (i+1 == len(ptr) || (ptr[i+1] != '0' && ptr[i+1] != '1')) {
			return false
		}
	}
	return true
}

// pointerTokens splits a valid, non-empty pointer into its unescaped
// tokens.
func pointerTokens(ptr string) []string {
	parts := strings.Split(ptr[1:], "/")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")
	}
	return parts
}

// escapeToken escapes s as one token of a JSON pointer.
func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// lookup returns the value that ptr, a valid JSON pointer, names in doc (a
// value tree as gate.ParseJSON returns it) and whether it names one.
func lookup(doc any, ptr string) (any, bool) {
	if ptr == "" {
		return doc, true
	}
	if !validPointer(ptr) {
		return nil, false
	}
	cur := doc
	for _, tok := range pointerTokens(ptr) {
		switch n := cur.(type) {
		case map[string]any:
			v, ok := n[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, ok := arrayIndex(tok, len(n))
			if !ok {
				return nil, false
			}
			cur = n[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// arrayIndex parses tok as an index into an array of n elements: decimal,
// no leading zero, in range.
func arrayIndex(tok string, n int) (int, bool) {
	if tok == "" || (len(tok) > 1 && tok[0] == '0') || strings.TrimLeft(tok, "0123456789") != "" {
		return 0, false
	}
	i, err := strconv.Atoi(tok)
	if err != nil || i >= n {
		return 0, false
	}
	return i, true
}
