package judge

import (
	"errors"
	"fmt"

	"github.com/toolcert/toolcert/protocol"
)

// Rejection is the error every check of this package returns when the
// input breaks the protocol: the gate, a reason of docs/protocol.md and
// operator detail in Err. Find it with [AsRejection]; Err is for the audit
// log and reports only, never for an agent.
type Rejection struct {
	Gate   protocol.Gate
	Reason string
	Err    error
}

// Reject returns a *Rejection at gate g with reason, whose Err is built from
// format and args as fmt.Errorf builds it (so %w wraps).
func Reject(g protocol.Gate, reason, format string, args ...any) *Rejection {
	return &Rejection{Gate: g, Reason: reason, Err: fmt.Errorf(format, args...)}
}

// Error returns "gate reason: detail", or "gate reason" without detail.
func (r *Rejection) Error() string {
	head := string(r.Gate) + " " + r.Reason
	if r.Err == nil {
		return head
	}
	return head + ": " + r.Err.Error()
}

// Unwrap returns the operator detail, so errors.Is and errors.As see what
// it wraps.
func (r *Rejection) Unwrap() error { return r.Err }

// Detail returns the operator detail text, "" when there is none.
func (r *Rejection) Detail() string {
	if r.Err == nil {
		return ""
	}
	return r.Err.Error()
}

// Code returns the agent-visible error code and retryable flag a correct
// adapter answers this rejection with ([protocol.CodeFor]).
func (r *Rejection) Code() (protocol.Code, bool) {
	return protocol.CodeFor(r.Gate, r.Reason)
}

// AsRejection returns the *Rejection in err's chain and true, or nil and
// false when there is none.
func AsRejection(err error) (*Rejection, bool) {
	var r *Rejection
	if errors.As(err, &r) {
		return r, true
	}
	return nil, false
}
