package reference

import (
	"context"
	"net/http"

	"github.com/toolcert/toolcert/gate"
)

// unknownTool is the tool name of the envelope for a tool the adapter lacks.
const unknownTool = "unknown"

// handleInvoke runs one agent call, writes its audit event, then answers.
func (a *Adapter) handleInvoke(w http.ResponseWriter, r *http.Request) {
	ev := gate.Event{RequestID: gate.NewRequestID(), Tool: unknownTool, AdapterVersion: a.cfg.Version}
	status, body := a.invoke(r, &ev)
	ev.Time = a.cfg.Now()
	_ = a.audit.Write(ev) // the agent's answer does not depend on the operator's log
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(body)
}

// invoke returns the HTTP status and envelope of one agent call and fills
// ev with its outcome.
func (a *Adapter) invoke(r *http.Request, ev *gate.Event) (int, []byte) {
	t, ok := a.tools[r.PathValue("tool")]
	if !ok {
		err := gate.Reject(gate.GateAuthz, gate.ReasonToolNotAllowlisted, "no tool %.64q", r.PathValue("tool"))
		return http.StatusNotFound, a.fail(ev, err)
	}
	ev.Tool = t.name
	args, status, err := a.arguments(r, t)
	if err != nil {
		return status, a.fail(ev, err)
	}
	data, err := a.run(r.Context(), t, args, ev)
	if err != nil {
		return http.StatusOK, a.fail(ev, err)
	}
	body, err := a.succeed(t, ev.RequestID, data)
	if err != nil {
		return http.StatusOK, a.fail(ev, err)
	}
	ev.Gate, ev.Reason = gate.GateNone, gate.ReasonOK
	return http.StatusOK, body
}

// run fetches the upstream answer and passes it through the gates; it
// returns the agent data.
func (a *Adapter) run(ctx context.Context, t compiledTool, args map[string]string, ev *gate.Event) (map[string]any, error) {
	f, err := a.fetcher.Get(ctx, a.base+t.path(args))
	ev.SetFetched(f)
	if err != nil {
		return nil, err
	}
	name, ver, err := t.upstreamVersion(f.Header)
	if err != nil {
		return nil, err
	}
	v, err := a.decode(t, ver, f)
	if id, ok := a.s.requestID(v); ok {
		ev.RequestID = id
	}
	if err != nil {
		return nil, err
	}
	if err := t.schemas.vendor[name].Validate(v); err != nil {
		return nil, err
	}
	vendor, ok := v.(map[string]any)
	if !ok {
		return nil, gate.Reject(gate.GateSchema, gate.ReasonSchemaViolation, "body is not an object")
	}
	if err := a.bind(ver, args, vendor); err != nil {
		return nil, err
	}
	data, err := project(t, ver, vendor)
	if err != nil {
		return nil, err
	}
	return a.s.project(t.name, vendor, data), nil
}

// decode checks the content type and parses the body: strict JSON, or the
// version's key=value lines.
func (a *Adapter) decode(t compiledTool, ver version, f gate.Fetched) (any, error) {
	if err := gate.CheckContentType(f.Header, t.contentType); err != nil {
		return nil, err
	}
	if ver.lines == nil {
		return a.s.parse(f.Raw, a.cfg.Limits)
	}
	kv, err := gate.ParseKeyValues(f.Raw, ver.lines)
	if err != nil {
		return nil, err
	}
	v := make(map[string]any, len(kv))
	for k, s := range kv {
		v[k] = s
	}
	return v, nil
}
