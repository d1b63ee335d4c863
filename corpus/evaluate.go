package corpus

import (
	"fmt"
	"time"

	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
)

// Answer is one upstream answer as the adapter would read it.
type Answer struct {
	// Status is the HTTP status code.
	Status int
	// ContentType is the one Content-Type header ("" for none).
	ContentType string
	// Body is the whole body, already rendered (no placeholders).
	Body []byte
}

// Limits are the adapter's declared limits the oracle applies. A zero
// field means its default (see [DefaultLimits]).
type Limits struct {
	// MaxBytes is the byte limit on one upstream body.
	MaxBytes int64
	// MaxDepth is the nesting-depth limit of a JSON document.
	MaxDepth int
	// Freshness is the oldest acceptable age of a fresh timestamp.
	Freshness time.Duration
	// Skew is how far in the future a fresh timestamp may be.
	Skew time.Duration
}

// DefaultLimits returns the defaults of docs/protocol.md: 65536 bytes,
// depth 32, freshness 5m, future skew 30s.
func DefaultLimits() Limits {
	return Limits{MaxBytes: protocol.DefaultMaxBytes, MaxDepth: protocol.DefaultMaxDepth, Freshness: protocol.DefaultFreshness, Skew: protocol.DefaultFutureSkew}
}

// withDefaults fills zero or negative fields with their defaults.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxBytes <= 0 {
		l.MaxBytes = d.MaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.Freshness <= 0 {
		l.Freshness = d.Freshness
	}
	if l.Skew <= 0 {
		l.Skew = d.Skew
	}
	return l
}

// Outcome is what a correct adapter does with an answer.
type Outcome struct {
	// Accepted tells whether the agent gets data.
	Accepted bool
	// Data is the agent's data when accepted, values as judge.ParseJSON
	// gives them (json.Number for numbers, Integers fields included).
	Data map[string]any
	// Code is the failure code when not accepted (protocol.Code).
	Code string
	// Retryable is the failure envelope's retryable flag.
	Retryable bool
	// Gate and Reason are the audit event's, per docs/protocol.md; "none"
	// and "ok" when accepted.
	Gate, Reason string
	// Detail is the operator detail of a rejection.
	Detail string
}

// oracleRequestID is the request_id of the envelope the oracle checks
// against the agent contract.
const oracleRequestID = "req.oracle0001"

// Evaluate returns what a correct adapter does with answer a to the agent
// call of tool t with args, against upstream version, at now, within lim.
// It follows the pipeline of docs/protocol.md (status, byte limit, content
// type, parse, schema, bind, freshness, projection, agent contract) driven
// only by t. A rejection is an Outcome, not an error: Evaluate fails only
// when the corpus is broken (an unknown version, a schema or contract that
// does not compile, a malformed pointer, an argument the binding needs but
// args lacks). It is safe for concurrent use.
func (c *Corpus) Evaluate(t *Tool, version string, a Answer, args map[string]string, now time.Time, lim Limits) (Outcome, error) {
	if t == nil {
		return Outcome{}, fmt.Errorf("evaluate: nil tool")
	}
	p, err := c.plan(t, version, args)
	if err != nil {
		return Outcome{}, fmt.Errorf("evaluate %s %s: %w", t.Name, version, err)
	}
	data, err := p.run(a, args, now, lim.withDefaults())
	if err == nil {
		return Outcome{Accepted: true, Data: data, Gate: string(protocol.GateNone), Reason: protocol.ReasonOK}, nil
	}
	r, ok := judge.AsRejection(err)
	if !ok {
		return Outcome{}, fmt.Errorf("evaluate %s %s: %w", t.Name, version, err)
	}
	code, retryable := r.Code()
	return Outcome{Code: string(code), Retryable: retryable, Gate: string(r.Gate), Reason: r.Reason, Detail: r.Detail()}, nil
}

// run passes a through the gates in order and returns the agent's data or
// the first *judge.Rejection.
func (p *plan) run(a Answer, args map[string]string, now time.Time, lim Limits) (map[string]any, error) {
	if err := statusGate(a.Status); err != nil {
		return nil, err
	}
	if int64(len(a.Body)) > lim.MaxBytes {
		return nil, judge.Reject(protocol.GateTransport, protocol.ReasonByteLimit, "body of %d bytes exceeds %d", len(a.Body), lim.MaxBytes)
	}
	doc, err := p.decode(a, lim)
	if err != nil {
		return nil, err
	}
	if err := p.upstream.schema.Validate(doc); err != nil {
		return nil, err
	}
	if err := p.bind(doc, args); err != nil {
		return nil, err
	}
	if err := p.fresh(doc, now, lim); err != nil {
		return nil, err
	}
	data, err := p.project(doc)
	if err != nil {
		return nil, err
	}
	if err := p.satisfies(data); err != nil {
		return nil, err
	}
	return data, nil
}

// statusGate judges the status before anything else: 200 goes on, every
// other status is the transport rejection of protocol.StatusReason.
func statusGate(status int) error {
	if reason := protocol.StatusReason(status); reason != "" {
		return judge.Reject(protocol.GateTransport, reason, "upstream answered %d", status)
	}
	return nil
}
