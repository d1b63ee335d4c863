package gate

import (
	"strconv"
	"strings"
)

// ValidPointer reports whether ptr is an RFC 6901 JSON pointer: empty, or
// "/"-separated tokens in which every "~" is followed by "0" or "1".
func ValidPointer(ptr string) bool {
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

// PointerTokens returns the unescaped reference tokens of a valid pointer
// (none for the empty pointer).
func PointerTokens(ptr string) []string {
	if ptr == "" {
		return nil
	}
	parts := strings.Split(ptr[1:], "/")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")
	}
	return parts
}

// EscapePointerToken escapes s as one reference token of a JSON pointer.
func EscapePointerToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// Lookup returns the value that ptr, a JSON pointer, names in doc (a value
// tree as ParseJSON returns it) and whether it names one. The empty
// pointer names doc itself; an invalid pointer names nothing. It never
// panics, whatever doc holds.
func Lookup(doc any, ptr string) (any, bool) {
	if !ValidPointer(ptr) {
		return nil, false
	}
	cur := doc
	for _, tok := range PointerTokens(ptr) {
		switch n := cur.(type) {
		case map[string]any:
			v, ok := n[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, ok := PointerIndex(tok, len(n))
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

// PointerIndex parses tok, a reference token, as an index into an array of
// n elements: decimal, no leading zero, in range.
func PointerIndex(tok string, n int) (int, bool) {
	if tok == "" || (len(tok) > 1 && tok[0] == '0') || strings.TrimLeft(tok, "0123456789") != "" {
		return 0, false
	}
	i, err := strconv.Atoi(tok)
	if err != nil || i >= n {
		return 0, false
	}
	return i, true
}
