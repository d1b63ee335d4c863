package gate

import (
	"errors"
	"fmt"

	"github.com/toolcert/toolcert/protocol"
)

// Rejection is the error every gate returns: the gate, a reason from the
// closed list of docs/protocol.md and the operator detail in Err. Callers
// find it with errors.As; Err is for the audit log only and must never be
// shown to the agent.
type Rejection struct {
	Gate   protocol.Gate
	Reason string
	Err    error
}

// Reject returns a *Rejection whose Err is built from format and args like
// fmt.Errorf (so %w wraps).
func Reject(gate protocol.Gate, reason, format string, args ...any) *Rejection {
	return &Rejection{Gate: gate, Reason: reason, Err: fmt.Errorf(format, args...)}
}

// Error returns "gate reason: detail".
func (r *Rejection) Error() string {
	if r.Err == nil {
		return string(r.Gate) + " " + r.Reason
	}
	return string(r.Gate) + " " + r.Reason + ": " + r.Err.Error()
}

// Unwrap returns the operator detail.
func (r *Rejection) Unwrap() error { return r.Err }

// Detail returns the operator detail text, or "" when there is none.
func (r *Rejection) Detail() string {
	if r.Err == nil {
		return ""
	}
	return r.Err.Error()
}

// AsRejection returns the *Rejection in err's chain, if any.
func AsRejection(err error) (*Rejection, bool) {
	var r *Rejection
	ok := errors.As(err, &r)
	return r, ok
}
