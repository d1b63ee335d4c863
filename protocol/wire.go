package protocol

import "net/url"

// The agent's and the harness's endpoints on an adapter.
const (
	// HealthPath answers 200 once the adapter is ready.
	HealthPath = "/healthz"
	// UnknownTool is the envelope's tool of a call to a tool the adapter
	// does not have (or the policy does not allowlist).
	UnknownTool = "unknown"
)

// InvokePath returns the path the agent posts a call of tool to:
// /v1/tools/{tool}/invoke, tool path-escaped.
func InvokePath(tool string) string { return "/v1/tools/" + url.PathEscape(tool) + "/invoke" }

// ApprovalPath returns the path a human posts the answer to approval id
// to: /v1/approvals/{id}, id path-escaped.
func ApprovalPath(id string) string { return "/v1/approvals/" + url.PathEscape(id) }

// Upstream-facing headers and values.
const (
	// VersionHeader names the vendor version of an upstream answer.
	VersionHeader = "X-Api-Version"
	// DefaultUpstreamVersion is the version of an answer without
	// VersionHeader.
	DefaultUpstreamVersion = "v1"
	// IdempotencyKeyHeader carries the approval (or request) id of a call
	// that acts on the upstream, sent once.
	IdempotencyKeyHeader = "Idempotency-Key"
)

// Content types of upstream answers and of the agent-visible body.
const (
	ContentTypeJSON = "application/json"
	ContentTypeText = "text/plain"
)

// Keys of MCP _meta objects (docs/protocol.md, "Other target kinds").
const (
	// MetaToken carries the agent's session token in a tools/call
	// request's _meta: MCP has no bearer token per call.
	MetaToken = "dev.toolcert/token"
	// MetaRequestID carries, in a tools/call result's _meta, the request
	// id the call's audit event records.
	MetaRequestID = "dev.toolcert/request_id"
	// ExperimentalKey names, in an MCP server's experimental
	// capabilities, the object with which it declares what it has for
	// toolcert: {"capabilities": ["audit", "policy", "approvals"]}.
	ExperimentalKey = "dev.toolcert"
)
