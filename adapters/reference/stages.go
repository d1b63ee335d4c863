package reference

import (
	"encoding/json"
	"net/http"

	"github.com/toolcert/toolcert/gate"
)

// arguments reads the agent's {"arguments": {...}} body and validates the
// arguments against the tool's closed schema. A body of another shape is
// HTTP 400; invalid arguments are a tool result (HTTP 200). Both are
// DENIED, gate authz, reason arguments_invalid.
func (a *Adapter) arguments(r *http.Request, t compiledTool) (map[string]string, int, error) {
	raw, err := gate.ReadLimited(r.Body, a.maxInput)
	if err != nil {
		return nil, http.StatusBadRequest, denied("request body: %w", err)
	}
	v, err := gate.ParseJSON(raw, gate.DefaultLimits())
	if err != nil {
		return nil, http.StatusBadRequest, denied("request body: %w", err)
	}
	body, ok := v.(map[string]any)
	args, isObj := body["arguments"].(map[string]any)
	if !ok || len(body) != 1 || !isObj {
		return nil, http.StatusBadRequest, denied("request body is not {\"arguments\": {...}}")
	}
	if err := t.schemas.args.Validate(args); err != nil {
		return nil, http.StatusOK, denied("arguments: %w", err)
	}
	out := make(map[string]string, len(t.args))
	for _, name := range t.args {
		s, _ := args[name].(string) // the closed schema requires strings
		out[name] = s
	}
	return out, http.StatusOK, nil
}

// denied returns an arguments_invalid rejection.
func denied(format string, args ...any) *gate.Rejection {
	return gate.Reject(gate.GateAuthz, gate.ReasonArgumentsInvalid, format, args...)
}

// bind checks that the answer is about what was asked, and fresh.
func (a *Adapter) bind(ver version, args map[string]string, vendor map[string]any) error {
	for _, b := range ver.bind {
		got, _ := lookup(vendor, b.pointer)
		if err := gate.Equal(b.arg, got, args[b.arg]); err != nil {
			return err
		}
	}
	if ver.fresh == "" {
		return nil
	}
	got, _ := lookup(vendor, ver.fresh)
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
		v, ok := lookup(vendor, f.pointer)
		if !ok {
			return nil, gate.Reject(gate.GateSchema, gate.ReasonSchemaViolation, "project %s: %s names nothing in the answer", f.name, f.pointer)
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
		return nil, gate.Reject(gate.GateSchema, gate.ReasonSchemaViolation, "agent contract: %w", err)
	}
	if !a.s.contractCheck {
		return body, nil
	}
	doc, err := gate.ParseJSON(body, gate.DefaultLimits())
	if err == nil {
		err = t.schemas.contract.Validate(doc)
	}
	if err != nil {
		return nil, gate.Reject(gate.GateSchema, gate.ReasonSchemaViolation, "agent contract: %w", err)
	}
	return body, nil
}

// fail records the rejection in ev and returns the failure envelope.
func (a *Adapter) fail(ev *gate.Event, err error) []byte {
	r, ok := gate.AsRejection(err)
	if !ok {
		r = &gate.Rejection{Gate: gate.GateSchema, Reason: gate.ReasonSchemaViolation, Err: err}
	}
	ev.Gate, ev.Reason, ev.Detail = r.Gate, r.Reason, r.Detail()
	code, retryable := r.Code()
	if !a.s.failureDetail {
		return gate.Failure(ev.Tool, ev.RequestID, code, retryable)
	}
	return detailedFailure(ev.Tool, ev.RequestID, code, retryable, ev.Detail)
}

// detailedFailure is the failure envelope with the operator detail added:
// only for mutation testing (WithFailureDetail).
func detailedFailure(tool, requestID string, code gate.Code, retryable bool, detail string) []byte {
	type errorObject struct {
		Code      gate.Code `json:"code"`
		Retryable bool      `json:"retryable"`
		Detail    string    `json:"detail"`
	}
	b, _ := json.Marshal(struct {
		Tool      string      `json:"tool"`
		RequestID string      `json:"request_id"`
		Outcome   string      `json:"outcome"`
		Error     errorObject `json:"error"`
	}{tool, requestID, gate.OutcomeFailure, errorObject{code, retryable, detail}})
	return b
}
