package pipeline

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// Fetcher sends the upstream requests of one agent call: *gate.Fetcher is
// the reference implementation. Get may retry; Post must not.
type Fetcher interface {
	Get(ctx context.Context, url string) (gate.Fetched, error)
	Post(ctx context.Context, url string, body []byte, header http.Header) (gate.Fetched, error)
}

var _ Fetcher = (*gate.Fetcher)(nil)

// ApprovalStore keeps the human approvals of the calls the policy marks
// ask: *gate.Approvals is the reference implementation.
type ApprovalStore interface {
	Request(b gate.Binding, requestID string) (id string)
	Decide(id string, approve bool) (status string, err error)
	Redeem(id string, b gate.Binding) error
}

var _ ApprovalStore = (*gate.Approvals)(nil)

// DecideFunc decides one call (see [gate.Policy.Decide]).
type DecideFunc func(p *gate.Policy, tool string, argumentsValid bool, s gate.Session) protocol.Decision

// Option changes one stage of the adapter. The defaults, set in one place
// (defaultSettings), are the safe reference behaviour; the options exist so
// that mutation tests can replace exactly one stage.
type Option func(*settings)

// settings holds the stages an Option may replace.
type settings struct {
	parse          func(raw []byte, lim gate.Limits) (any, error)
	parseText      func(raw []byte, keys []gate.KeySpec) (map[string]string, error)
	vendorSchema   func(schema []byte) []byte
	project        func(tool string, vendor, data map[string]any) map[string]any
	requestID      func(vendor any) (string, bool)
	fetcher        Fetcher
	audit          io.Writer
	contractCheck  bool
	freshnessCheck bool
	failureDetail  bool
	failureCode    func(code protocol.Code, retryable bool) (protocol.Code, bool)

	// call side
	argsSchema func(tool string, schema []byte) []byte
	escape     func(arg string) string
	lookupTool func(requested string, tools []string) (string, bool)
	decide     DecideFunc
	approvals  func(ttl time.Duration, now func() time.Time) ApprovalStore
	account    func(args map[string]any, s gate.Session) string
	repairBody func(raw []byte) []byte

	// the agent-facing handler and the audit
	middleware func(http.Handler) http.Handler
	auditEvent func(*protocol.AuditEvent)

	clones map[string]string // clone name -> read tool (WithToolClones)
}

// defaultSettings returns the reference stages.
func defaultSettings() settings {
	return settings{
		parse:          gate.ParseJSON,
		parseText:      gate.ParseKeyValues,
		vendorSchema:   func(schema []byte) []byte { return schema },
		project:        func(_ string, _, data map[string]any) map[string]any { return data },
		requestID:      func(any) (string, bool) { return "", false },
		contractCheck:  true,
		freshnessCheck: true,
		failureCode:    func(c protocol.Code, r bool) (protocol.Code, bool) { return c, r },
		argsSchema:     func(_ string, schema []byte) []byte { return schema },
		escape:         url.PathEscape,
		lookupTool:     exactTool,
		decide:         (*gate.Policy).Decide,
		approvals: func(ttl time.Duration, now func() time.Time) ApprovalStore {
			return gate.NewApprovals(ttl, now)
		},
		account:    func(_ map[string]any, s gate.Session) string { return s.Account },
		middleware: func(h http.Handler) http.Handler { return h },
		auditEvent: func(*protocol.AuditEvent) {},
	}
}

// exactTool finds requested among tools byte for byte.
func exactTool(requested string, tools []string) (string, bool) {
	if slices.Contains(tools, requested) {
		return requested, true
	}
	return "", false
}

// WithParser replaces the strict JSON parser (default [gate.ParseJSON]).
func WithParser(parse func(raw []byte, lim gate.Limits) (any, error)) Option {
	return func(s *settings) { s.parse = parse }
}

// WithTextParser replaces the key=value parser of text tools (default
// [gate.ParseKeyValues]).
func WithTextParser(parse func(raw []byte, keys []gate.KeySpec) (map[string]string, error)) Option {
	return func(s *settings) { s.parseText = parse }
}

// WithVendorSchemaTransform rewrites each pinned vendor schema before it is
// compiled (default: unchanged).
func WithVendorSchemaTransform(transform func(schema []byte) []byte) Option {
	return func(s *settings) { s.vendorSchema = transform }
}

// WithProjection is called with the validated vendor body and the projected
// agent data and returns the data to send (default: the projected data).
func WithProjection(project func(tool string, vendor, data map[string]any) map[string]any) Option {
	return func(s *settings) { s.project = project }
}

// WithRequestIDFrom may replace the adapter-generated request_id with one
// taken from the parsed upstream body when it returns ok (default: never).
func WithRequestIDFrom(from func(vendor any) (id string, ok bool)) Option {
	return func(s *settings) { s.requestID = from }
}

// WithFetcher replaces the upstream fetcher (default: a *gate.Fetcher built
// with [FetcherOptions] of the Config); the adapter does not close it.
func WithFetcher(f Fetcher) Option {
	return func(s *settings) { s.fetcher = f }
}

// WithAuditWriter sends the audit events to w instead of Config.AuditFile
// or standard error; the adapter does not close w.
func WithAuditWriter(w io.Writer) Option {
	return func(s *settings) { s.audit = w }
}

// WithContractCheck turns the validation of the success envelope against
// the agent contract before it is sent on or off (default on).
func WithContractCheck(on bool) Option {
	return func(s *settings) { s.contractCheck = on }
}

// WithFreshnessCheck turns the observed_at window check on or off (default
// on); observed_at is parsed either way.
func WithFreshnessCheck(on bool) Option {
	return func(s *settings) { s.freshnessCheck = on }
}

// WithFailureDetail adds the operator detail to the failure envelope's
// error object as "detail" (default off: the agent never sees it).
func WithFailureDetail(on bool) Option {
	return func(s *settings) { s.failureDetail = on }
}

// WithFailureCode maps the code and retryable flag of every failure
// envelope before it is sent (default: unchanged).
func WithFailureCode(mapping func(code protocol.Code, retryable bool) (protocol.Code, bool)) Option {
	return func(s *settings) { s.failureCode = mapping }
}

// WithArgumentsSchemaTransform rewrites each pinned argument schema before
// it is compiled (default: unchanged).
func WithArgumentsSchemaTransform(transform func(tool string, schema []byte) []byte) Option {
	return func(s *settings) { s.argsSchema = transform }
}

// WithArgumentEscape replaces how an argument is escaped for its segment
// of the upstream path (default url.PathEscape).
func WithArgumentEscape(escape func(arg string) string) Option {
	return func(s *settings) { s.escape = escape }
}

// WithToolLookup finds the tool the agent named among the adapter's tools
// and returns its name (default: an exact, byte-for-byte match).
func WithToolLookup(lookup func(requested string, tools []string) (name string, ok bool)) Option {
	return func(s *settings) { s.lookupTool = lookup }
}

// WithDecide replaces how a call is decided (default
// [gate.Policy.Decide]); the adapter still validates the record with
// [gate.ValidateDecision] and denies unless it says allow or ask.
func WithDecide(decide DecideFunc) Option {
	return func(s *settings) { s.decide = decide }
}

// WithApprovalStore builds the approval store from the policy's ttl and the
// adapter's clock (default [gate.NewApprovals]).
func WithApprovalStore(build func(ttl time.Duration, now func() time.Time) ApprovalStore) Option {
	return func(s *settings) { s.approvals = build }
}

// WithAccountFrom returns the account request_refund checks the order's
// owner against (default: the session's account, never an argument).
func WithAccountFrom(account func(args map[string]any, s gate.Session) string) Option {
	return func(s *settings) { s.account = account }
}

// WithBodyRepair, when set, is given an invocation body that ended early
// (a read error, or JSON cut short) and returns the body to parse instead;
// the call is then acted on even when the agent has hung up (default:
// none; such a body is DENIED).
func WithBodyRepair(repair func(raw []byte) []byte) Option {
	return func(s *settings) { s.repairBody = repair }
}

// WithMiddleware wraps the adapter's agent-facing handler (default: none).
// The request's context reaches the Fetcher, so a middleware and a Fetcher
// may share per-call state through it.
func WithMiddleware(wrap func(http.Handler) http.Handler) Option {
	return func(s *settings) { s.middleware = wrap }
}

// WithAuditEdit changes each audit event just before it is written
// (default: unchanged).
func WithAuditEdit(edit func(*protocol.AuditEvent)) Option {
	return func(s *settings) { s.auditEvent = edit }
}

// FetcherOptions returns the gate.Fetcher options that apply cfg's limits:
// byte limit, attempts, deadline and read timeout.
func FetcherOptions(cfg Config) []gate.FetchOption {
	return []gate.FetchOption{
		gate.WithMaxBytes(cfg.Limits.MaxBytes),
		gate.WithMaxAttempts(cfg.MaxAttempts),
		gate.WithDeadline(cfg.Deadline),
		gate.WithReadTimeout(cfg.ReadTimeout),
	}
}
