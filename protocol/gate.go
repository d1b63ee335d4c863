package protocol

import "slices"

// Gate names the stage of an adapter's pipeline that decided an agent call,
// as its audit event records it.
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

// Reasons by gate, as docs/protocol.md lists them.
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

// Gates returns every gate, in pipeline order, GateNone last.
func Gates() []Gate {
	return []Gate{GateTransport, GateParse, GateSchema, GateSemantic, GateAuthz, GateNone}
}

// Reasons returns the reasons gate g may record, in the order of
// docs/protocol.md; none for a gate the protocol does not know.
func Reasons(g Gate) []string {
	switch g {
	case GateTransport:
		return []string{ReasonStatus404, ReasonStatus429, ReasonStatus5xx, ReasonStatus4xx, ReasonUnexpectedStatus,
			ReasonConnection, ReasonTimeout, ReasonDeadline, ReasonByteLimit}
	case GateParse:
		return []string{ReasonContentType, ReasonBOM, ReasonInvalidUTF8, ReasonSyntax, ReasonNonfinite, ReasonDuplicateName,
			ReasonInvalidSurrogate, ReasonTruncated, ReasonTrailingData, ReasonDepthLimit, ReasonTextFormat}
	case GateSchema:
		return []string{ReasonSchemaViolation, ReasonUnsupportedVersion}
	case GateSemantic:
		return []string{ReasonBindingMismatch, ReasonStale, ReasonFuture, ReasonBadTimestamp,
			ReasonAmountExceedsBalance, ReasonCurrencyMismatch}
	case GateAuthz:
		return []string{ReasonToolNotAllowlisted, ReasonArgumentsInvalid, ReasonGrantMissing}
	case GateNone:
		return []string{ReasonOK}
	}
	return nil
}

// Records reports whether gate g may record reason.
func Records(g Gate, reason string) bool {
	return slices.Contains(Reasons(g), reason)
}
