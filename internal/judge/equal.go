package judge

import (
	"fmt"

	"github.com/toolcert/toolcert/protocol"
)

// Equal binds a field of an upstream answer to the request: it returns nil
// when got, a value of the parsed tree, is the string want, and otherwise
// a *Rejection at gate semantic, reason binding_mismatch, naming field. A
// number, a missing value (nil) or any other type never equals want.
func Equal(field string, got any, want string) error {
	if s, isString := got.(string); isString && s == want {
		return nil
	}
	return Reject(protocol.GateSemantic, protocol.ReasonBindingMismatch, "%s is %.80s, want %q", field, describe(got), want)
}

// describe renders a value of the parsed tree for operator detail.
func describe(v any) string {
	if s, isString := v.(string); isString {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%T %v", v, v)
}
