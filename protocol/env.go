package protocol

// Names of the environment variables a target is started with
// (docs/protocol.md, "Starting a target"). A target profile may rename each
// one for an adapter that already uses other names, except VarOwner.
const (
	// VarPrefix starts the name of every variable of the protocol: a
	// target process inherits none of the harness's own.
	VarPrefix = "TOOLCERT_"

	// VarUpstreamURL holds the base URL of the mock upstream.
	VarUpstreamURL = "TOOLCERT_UPSTREAM_URL"
	// VarListen holds the host:port the adapter must listen on.
	VarListen = "TOOLCERT_LISTEN"
	// VarAuditFile holds the path of the operator audit log (optional).
	VarAuditFile = "TOOLCERT_AUDIT_FILE"
	// VarPolicyFile holds the path of the call-side policy (optional).
	VarPolicyFile = "TOOLCERT_POLICY_FILE"
	// VarOwner names the harness process that started the target process:
	// its pid, the pid's start time, a random ID and the pid namespace. It
	// is informational: an adapter need not read it, and should leave it
	// in the environment of the processes it starts. A harness killed with
	// SIGKILL cannot end those, and the next harness kills every process
	// whose VarOwner names a harness that no longer runs. The harness sets
	// it on every process it starts, last and under this name: a rename
	// neither renames nor drops it. Containers do not get it: their labels
	// name their harness.
	VarOwner = "TOOLCERT_OWNER"

	// The optional limits; see the Default* constants.
	VarMaxBytes    = "TOOLCERT_MAX_BYTES"
	VarMaxDepth    = "TOOLCERT_MAX_DEPTH"
	VarMaxAttempts = "TOOLCERT_MAX_ATTEMPTS"
	VarDeadline    = "TOOLCERT_DEADLINE"
	VarReadTimeout = "TOOLCERT_READ_TIMEOUT"
	VarFreshness   = "TOOLCERT_FRESHNESS"
	VarFutureSkew  = "TOOLCERT_FUTURE_SKEW"
)
