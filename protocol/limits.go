package protocol

import "time"

// The default limits of docs/protocol.md: the values an adapter uses when
// its TOOLCERT_* limit variable is not set, and the default target
// profile's.
const (
	// DefaultMaxBytes is the byte limit on one upstream response body.
	DefaultMaxBytes = 65536
	// DefaultMaxDepth is the nesting-depth limit of a JSON document: a
	// document nested this deep is accepted, one level more is not.
	DefaultMaxDepth = 32
	// DefaultMaxAttempts is the upstream attempts per agent call, retries
	// included.
	DefaultMaxAttempts = 3
	// DefaultDeadline is the total time budget of one agent call's
	// upstream work.
	DefaultDeadline = 2 * time.Second
	// DefaultReadTimeout is the longest silence while reading headers or
	// body.
	DefaultReadTimeout = 400 * time.Millisecond
	// DefaultFreshness is the oldest acceptable observation.
	DefaultFreshness = 5 * time.Minute
	// DefaultFutureSkew is how far in the future an observation may be.
	DefaultFutureSkew = 30 * time.Second
	// DefaultApprovalTTL is how long an approval lives when the policy
	// file leaves approval_ttl out.
	DefaultApprovalTTL = 5 * time.Minute
)

// Fixed bounds of the protocol, not configurable.
const (
	// MaxInvocationBytes bounds the agent's invocation body; a larger one
	// is DENIED with HTTP 400.
	MaxInvocationBytes = 64 << 10
	// ReadyTimeout is how long the harness waits, by default, for a
	// target's GET /healthz to answer 200 (a profile's ready_timeout and
	// --ready-timeout replace it).
	ReadyTimeout = 10 * time.Second
	// AuditGrace is how long the harness waits, after the agent's answer,
	// for the call's audit event of an adapter that writes it later; it is
	// also each lane's budget for all waits that end without the event
	// (docs/protocol.md, the operator's side).
	AuditGrace = 2 * time.Second
)
