package protocol

import "regexp"

// The outcomes of an agent-visible envelope.
const (
	OutcomeSuccess         = "success"
	OutcomeFailure         = "failure"
	OutcomePendingApproval = "pending_approval"
)

// RequestIDPattern is the pattern every envelope's request_id matches: an
// id the adapter generates for each call, bounded so that no paragraph can
// hide in it.
const RequestIDPattern = `^[A-Za-z0-9][A-Za-z0-9_.]{7,63}$`

var requestID = regexp.MustCompile(RequestIDPattern)

// ValidRequestID reports whether id matches RequestIDPattern.
func ValidRequestID(id string) bool { return requestID.MatchString(id) }
