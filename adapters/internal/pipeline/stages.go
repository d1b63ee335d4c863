package pipeline

import (
	"encoding/json"
	"errors"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// checkArguments validates the agent's arguments against the tool's
// closed schema, then the tool's own checks in code. Invalid arguments are
// DENIED, gate authz, reason arguments_invalid.
func (t compiledTool) checkArguments(args map[string]any) error {
	if err := t.schemas.args.Validate(args); err != nil {
		return denied("arguments: %w", err)
	}
	if t.check == nil {
		return nil
	}
	if err := t.check(args); err != nil {
		return denied("arguments: %w", err)
	}
	return nil
}

// stringArgs returns the string arguments the tool's path uses.
func (t compiledTool) stringArgs(args map[string]any) map[string]string {
	out := make(map[string]string, len(t.args))
	for _, name := range t.args {
		s, _ := args[name].(string) // the closed schema requires strings
		out[name] = s
	}
	return out
}

// denied returns an arguments_invalid rejection.
func denied(format string, args ...any) *gate.Rejection {
	return gate.Reject(protocol.GateAuthz, protocol.ReasonArgumentsInvalid, format, args...)
}

// bind checks that the answer is about what was asked, and fresh.
func (a *Adapter) bind(ver version, args map[string]string, vendor map[string]any) error {
	for _, b := range ver.bind {
		got, _ := gate.Lookup(vendor, b.pointer)
		if err := gate.Equal(b.arg, got, args[b.arg]); err != nil {
			return err
		}
	}
	if ver.fresh == "" {
		return nil
	}
	got, _ := gate.Lookup(vendor, ver.fresh)
	observed, _ := got.(string)
	if !a.s.freshnessCheck {
		_, err := gate.ParseTimestamp(observed)
		return err
	}
	return gate.Fresh(observed, a.cfg.Now(), a.cfg.Freshness, a.cfg.FutureSkew)
}

// project builds a new object holding only the contract's fields, each
// taken from where the version's answer has it.
func project(t compiledTool, ver version, vendor map[string]any) (map[string]any, error) {
	data := make(map[string]any, len(ver.project))
	for _, f := range ver.project {
		v, ok := gate.Lookup(vendor, f.pointer)
		if !ok {
			return nil, gate.Reject(protocol.GateSchema, protocol.ReasonSchemaViolation, "project %s: %s names nothing in the answer", f.name, f.pointer)
		}
		if t.convert != nil {
			var err error
			if v, err = t.convert(f.name, v); err != nil {
				return nil, err
			}
		}
		data[f.name] = v
	}
	return data, nil
}

// succeed returns the success envelope, validated against the agent
// contract unless that check is off.
func (a *Adapter) succeed(t compiledTool, requestID string, data map[string]any) ([]byte, error) {
	body, err := gate.Success(t.name, requestID, data)
	if err != nil {
		return nil, gate.Reject(protocol.GateSchema, protocol.ReasonSchemaViolation, "agent contract: %w", err)
	}
	if !a.s.contractCheck {
		return body, nil
	}
	doc, err := gate.ParseJSON(body, gate.DefaultLimits())
	if err == nil {
		err = t.schemas.contract.Validate(doc)
	}
	if err != nil {
		return nil, gate.Reject(protocol.GateSchema, protocol.ReasonSchemaViolation, "agent contract: %w", err)
	}
	return body, nil
}

// fail records the rejection in ev and returns the failure envelope.
func (a *Adapter) fail(ev *protocol.AuditEvent, err error) []byte {
	r, ok := gate.AsRejection(err)
	if !ok {
		r = &gate.Rejection{Gate: protocol.GateSchema, Reason: protocol.ReasonSchemaViolation, Err: err}
	}
	ev.Gate, ev.Reason, ev.Detail = r.Gate, r.Reason, r.Detail()
	code, retryable := r.Code()
	var c *coded
	if errors.As(err, &c) {
		code, retryable = c.code, c.retryable
	}
	code, retryable = a.s.failureCode(code, retryable)
	if !a.s.failureDetail {
		return gate.Failure(ev.Tool, ev.RequestID, code, retryable)
	}
	return detailedFailure(ev.Tool, ev.RequestID, code, retryable, ev.Detail)
}

// detailedFailure is the failure envelope with the operator detail added:
// only for mutation testing (WithFailureDetail).
func detailedFailure(tool, requestID string, code protocol.Code, retryable bool, detail string) []byte {
	type errorObject struct {
		Code      protocol.Code `json:"code"`
		Retryable bool          `json:"retryable"`
		Detail    string        `json:"detail"`
	}
	b, _ := json.Marshal(struct {
		Tool      string      `json:"tool"`
		RequestID string      `json:"request_id"`
		Outcome   string      `json:"outcome"`
		Error     errorObject `json:"error"`
	}{tool, requestID, protocol.OutcomeFailure, errorObject{code, retryable, detail}})
	return b
}

// coded is a rejection whose agent-visible code is not the one its gate
// and reason give (see [gate.Rejection.Code]): a business check that
// refuses the call, a send that failed.
type coded struct {
	r         *gate.Rejection
	code      protocol.Code
	retryable bool
}

// Error returns the rejection's text.
func (c *coded) Error() string { return c.r.Error() }

// Unwrap returns the rejection.
func (c *coded) Unwrap() error { return c.r }

// refused returns a rejection of gate semantic that answers DENIED, not
// retryable: the call itself is refused by a business check.
func refused(reason, format string, args ...any) error {
	return &coded{r: gate.Reject(protocol.GateSemantic, reason, format, args...), code: protocol.CodeDenied}
}
