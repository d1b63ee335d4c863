package gate

import (
	"errors"
	"fmt"
)

// Gate names the stage of the pipeline that decided an agent call.
type Gate string

// The gates, in pipeline order, and GateNone for an accepted answer.
const (
	GateTransport Gate = "transport"
	GateParse     Gate = "parse"
	GateSchema    Gate = "schema"
	GateSemantic  Gate = "semantic"
	GateAuthz     Gate = "authz"
	GateNone      Gate = "none"
)

// Reasons by gate, as listed in docs/protocol.md.
const (
	ReasonStatus404        = "status_404"
	ReasonStatus429        = "status_429"
	ReasonStatus5xx        = "status_5xx"
	ReasonStatus4xx        = "status_4xx"
	ReasonUnexpectedStatus = "unexpected_status"
	ReasonConnection       = "connection"
	ReasonTimeout          = "timeout"
	ReasonDeadline         = "deadline"
	ReasonByteLimit        = "byte_limit"

	ReasonContentType      = "content_type"
	ReasonBOM              = "bom"
	ReasonInvalidUTF8      = "invalid_utf8"
	ReasonSyntax           = "syntax"
	ReasonNonfinite        = "nonfinite_number"
	ReasonDuplicateName    = "duplicate_name"
	ReasonInvalidSurrogate = "invalid_surrogate"
	ReasonTruncated        = "truncated"
	ReasonTrailingData     = "trailing_data"
	ReasonDepthLimit       = "depth_limit"
	ReasonTextFormat       = "text_format"

	ReasonSchemaViolation    = "schema_violation"
	ReasonUnsupportedVersion = "unsupported_version"

	ReasonBindingMismatch = "binding_mismatch"
	ReasonStale           = "stale"
	ReasonFuture          = "future"
	ReasonBadTimestamp    = "bad_timestamp"
	// The business checks of a proposal against a trusted record (call
	// side): the amount asked for is more than the balance, or the record
	// is in another currency.
	ReasonAmountExceedsBalance = "amount_exceeds_balance"
	ReasonCurrencyMismatch     = "currency_mismatch"

	ReasonToolNotAllowlisted = "tool_not_allowlisted"
	ReasonArgumentsInvalid   = "arguments_invalid"
	ReasonGrantMissing       = "grant_missing"

	ReasonOK = "ok"
)

// Rejection is the error every gate returns: the gate, a reason from the
// closed list of docs/protocol.md and the operator detail in Err. Callers
// find it with errors.As; Err is for the audit log only and must never be
// shown to the agent.
type Rejection struct {
	Gate   Gate
	Reason string
	Err    error
}

// Reject returns a *Rejection whose Err is built from format and args like
// fmt.Errorf (so %w wraps).
func Reject(gate Gate, reason, format string, args ...any) *Rejection {
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
