package reference

import (
	"context"
	"io"

	"github.com/toolcert/toolcert/gate"
)

// Fetcher sends the upstream request of one agent call: *gate.Fetcher is the
// reference implementation.
type Fetcher interface {
	Get(ctx context.Context, url string) (gate.Fetched, error)
}

var _ Fetcher = (*gate.Fetcher)(nil)

// Option changes one stage of the adapter. The defaults, set in one place
// (defaultSettings), are the safe reference behaviour; the options exist so
// that mutation tests can replace exactly one stage.
type Option func(*settings)

// settings holds the stages an Option may replace.
type settings struct {
	parse          func(raw []byte, lim gate.Limits) (any, error)
	vendorSchema   func(schema []byte) []byte
	project        func(tool string, vendor, data map[string]any) map[string]any
	requestID      func(vendor any) (string, bool)
	fetcher        Fetcher
	audit          io.Writer
	contractCheck  bool
	freshnessCheck bool
	failureDetail  bool
}

// defaultSettings returns the reference stages.
func defaultSettings() settings {
	return settings{
		parse:          gate.ParseJSON,
		vendorSchema:   func(schema []byte) []byte { return schema },
		project:        func(_ string, _, data map[string]any) map[string]any { return data },
		requestID:      func(any) (string, bool) { return "", false },
		contractCheck:  true,
		freshnessCheck: true,
	}
}

// WithParser replaces the strict JSON parser (default [gate.ParseJSON]).
func WithParser(parse func(raw []byte, lim gate.Limits) (any, error)) Option {
	return func(s *settings) { s.parse = parse }
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
