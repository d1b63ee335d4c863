package judge

import (
	"math"
	"strings"
)

// ValidPointer reports whether ptr is a JSON pointer (RFC 6901): empty,
// or '/' followed by reference tokens separated by '/', in which every '~'
// is followed by '0' or '1'.
func ValidPointer(ptr string) bool {
	if ptr == "" {
		return true
	}
	if ptr[0] != '/' {
		return false
	}
	for i := 0; i < len(ptr); i++ {
		if ptr[i] == '~' && !strings.HasPrefix(ptr[i+1:], "0") && !strings.HasPrefix(ptr[i+1:], "1") {
			return false
		}
	}
	return true
}

// PointerTokens returns the unescaped reference tokens of ptr: none for
// the empty pointer, and nil for an invalid one (check it with
// [ValidPointer] first).
func PointerTokens(ptr string) []string {
	if ptr == "" || !ValidPointer(ptr) {
		return nil
	}
	tokens := strings.Split(ptr[1:], "/")
	for i, tok := range tokens {
		tokens[i] = unescapeToken(tok)
	}
	return tokens
}

// unescapeToken turns "~1" into '/' and "~0" into '~' in one pass over
// a valid token, so that "~01" reads as "~1" (RFC 6901, section 4).
func unescapeToken(tok string) string {
	if !strings.Contains(tok, "~") {
		return tok
	}
	var b strings.Builder
	for i := 0; i < len(tok); i++ {
		if tok[i] != '~' {
			b.WriteByte(tok[i])
			continue
		}
		i++
		if tok[i] == '1' {
			b.WriteByte('/')
		} else {
			b.WriteByte('~')
		}
	}
	return b.String()
}

// EscapePointerToken returns s written as one reference token: '~' as
// "~0", '/' as "~1".
func EscapePointerToken(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '~':
			b.WriteString("~0")
		case '/':
			b.WriteString("~1")
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// Lookup returns the value ptr names in doc, a value tree as [ParseJSON]
// returns it (map[string]any and []any as containers), and whether ptr
// names one. The empty pointer names doc; an invalid pointer, a missing
// member, an index that is not a valid index of the array, or a step into
// anything but an object or array names nothing. It never panics.
func Lookup(doc any, ptr string) (any, bool) {
	if !ValidPointer(ptr) {
		return nil, false
	}
	cur := doc
	for _, tok := range PointerTokens(ptr) {
		next, ok := step(cur, tok)
		if !ok {
			return nil, false
		}
		cur = next
	}
	return cur, true
}

// step returns the child tok names in node.
func step(node any, tok string) (any, bool) {
	switch n := node.(type) {
	case map[string]any:
		v, ok := n[tok]
		return v, ok
	case []any:
		i, ok := PointerIndex(tok, len(n))
		if !ok {
			return nil, false
		}
		return n[i], true
	}
	return nil, false
}

// PointerIndex reads tok as an index into an array of n elements: decimal
// digits without a leading zero ("0" itself is fine), below n. "-" (the
// element past the end) and anything else is not an index.
func PointerIndex(tok string, n int) (int, bool) {
	if tok == "" || (tok[0] == '0' && len(tok) > 1) {
		return 0, false
	}
	i := 0
	for _, c := range []byte(tok) {
		if !isDigit(c) {
			return 0, false
		}
		d := int(c - '0')
		if i > (math.MaxInt-d)/10 {
			return 0, false // beyond any array
		}
		i = i*10 + d
	}
	if i >= n {
		return 0, false
	}
	return i, true
}
