package openapi

import (
	"fmt"
	"net/url"
	"strings"
)

// WholeAnswer is the --keep spelling of the whole answer: "#", the URI
// fragment form of the pointer to the whole document (RFC 6901, section
// 6). The plain pointer of it, "", is an empty flag value, and "/" names
// the member whose name is empty.
const WholeAnswer = "#"

// keepPointers returns the owner's keep pointers as plain RFC 6901
// pointers, the whole answer "", and each one's unescaped tokens. A
// pointer is written plain ("/user/login") or in its URI fragment form
// ("#", "#/user/login", percent-encoded: "#/a%20b"); the plain form of
// the whole answer, "", is refused as a likely slip (an empty item of a
// list), [WholeAnswer] being its spelling.
func keepPointers(keep []string) (pointers []string, tokens [][]string, err error) {
	for _, k := range keep {
		p := k
		frag, isFragment := strings.CutPrefix(k, "#")
		if isFragment {
			if p, err = url.PathUnescape(frag); err != nil {
				return nil, nil, fmt.Errorf("keep %q: not a URI fragment pointer: %w", k, err)
			}
		}
		switch {
		case p == "" && !isFragment:
			return nil, nil, fmt.Errorf("keep: an empty pointer: the whole answer is %s", WholeAnswer)
		case p != "" && !strings.HasPrefix(p, "/") && isFragment:
			return nil, nil, fmt.Errorf("keep %q is not a JSON pointer: in its URI fragment form it is # or starts with #/", k)
		case p != "" && !strings.HasPrefix(p, "/"):
			return nil, nil, fmt.Errorf("keep %q is not a JSON pointer: it must start with / (# keeps the whole answer)", k)
		}
		pointers = append(pointers, p)
		tokens = append(tokens, pointerTokens(p))
	}
	return pointers, tokens, nil
}
