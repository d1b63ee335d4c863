package protocol

import "net/http"

// Code is an agent-visible error code of the failure envelope.
type Code string

// The error codes of docs/protocol.md.
const (
	CodeNotFound            Code = "NOT_FOUND"
	CodeUpstreamUnavailable Code = "UPSTREAM_UNAVAILABLE"
	CodeInvalidResponse     Code = "INVALID_RESPONSE"
	CodeDenied              Code = "DENIED"
)

// Codes returns every error code, in the order of docs/protocol.md.
func Codes() []Code {
	return []Code{CodeNotFound, CodeUpstreamUnavailable, CodeInvalidResponse, CodeDenied}
}

// StatusReason returns the transport reason of an upstream answer's HTTP
// status: "" for 200, which goes on to the next gate; status_404,
// status_429, status_4xx, status_5xx, or unexpected_status for every other
// status (1xx, 2xx but 200, 3xx, 600 and above).
func StatusReason(status int) string {
	switch {
	case status == http.StatusOK:
		return ""
	case status == http.StatusNotFound:
		return ReasonStatus404
	case status == http.StatusTooManyRequests:
		return ReasonStatus429
	case status >= 400 && status < 500:
		return ReasonStatus4xx
	case status >= 500 && status < 600:
		return ReasonStatus5xx
	}
	return ReasonUnexpectedStatus
}

// CodeFor returns the error code and retryable flag of the failure envelope
// for a rejection at gate g with reason, per the table of docs/protocol.md:
// status_404 is NOT_FOUND; 5xx, 429, connection, timeout and deadline are
// UPSTREAM_UNAVAILABLE and retryable; another 4xx is UPSTREAM_UNAVAILABLE,
// not retryable; every authz reason is DENIED; everything else a gate
// rejects is INVALID_RESPONSE.
func CodeFor(g Gate, reason string) (code Code, retryable bool) {
	switch g {
	case GateAuthz:
		return CodeDenied, false
	case GateTransport:
		switch reason {
		case ReasonStatus404:
			return CodeNotFound, false
		case ReasonStatus429, ReasonStatus5xx, ReasonConnection, ReasonTimeout, ReasonDeadline:
			return CodeUpstreamUnavailable, true
		case ReasonStatus4xx:
			return CodeUpstreamUnavailable, false
		}
	}
	return CodeInvalidResponse, false
}
