package openapi

import (
	"strings"
)

// pointerEscaper escapes one RFC 6901 reference token.
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// pointerUnescaper undoes pointerEscaper.
var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

// childPointer returns the pointer of member or item tok under ptr.
func childPointer(ptr, tok string) string {
	return ptr + "/" + pointerEscaper.Replace(tok)
}

// pointerTokens splits an RFC 6901 pointer ("" or "/a/b") into its
// unescaped tokens.
func pointerTokens(ptr string) []string {
	if ptr == "" {
		return nil
	}
	toks := strings.Split(ptr[1:], "/")
	for i, t := range toks {
		toks[i] = pointerUnescaper.Replace(t)
	}
	return toks
}

// lastToken returns the last unescaped token of ptr, or "".
func lastToken(ptr string) string {
	toks := pointerTokens(ptr)
	if len(toks) == 0 {
		return ""
	}
	return toks[len(toks)-1]
}
