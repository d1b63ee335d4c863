package judge

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolcert/toolcert/protocol"
)

// Equal binds a field of an upstream answer to the request, comparing JSON
// values (docs/fixtures.md, "tool.json"): it returns nil when got, a value
// of the parsed tree, is the string want; an integer written exactly as
// want's digits (want an integer in its shortest form: 1347 binds "1347",
// never "01347", and 1.347e3 binds nothing); or the boolean want names
// ("true", "false"). Otherwise it returns a *Rejection at gate semantic,
// reason binding_mismatch, naming field: a missing value (nil), an object
// or an array never binds.
func Equal(field string, got any, want string) error {
	switch v := got.(type) {
	case string:
		if v == want {
			return nil
		}
	case json.Number:
		if string(v) == want && integerText(want) {
			return nil
		}
	case bool:
		if want == strconv.FormatBool(v) {
			return nil
		}
	}
	return Reject(protocol.GateSemantic, protocol.ReasonBindingMismatch, "%s is %.80s, want %q", field, describe(got), want)
}

// integerText reports whether s is an integer in its shortest decimal
// form: an optional minus, then 0 or digits without a leading zero.
func integerText(s string) bool {
	d := strings.TrimPrefix(s, "-")
	if d == "" || d[0] == '0' && len(d) > 1 || s == "-0" {
		return false
	}
	return strings.Trim(d, "0123456789") == ""
}

// describe renders a value of the parsed tree for operator detail.
func describe(v any) string {
	if s, isString := v.(string); isString {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%T %v", v, v)
}
