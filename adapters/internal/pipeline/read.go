package pipeline

import (
	"context"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// run fetches the upstream answer of a read tool and passes it through the
// gates; it returns the agent data.
func (a *Adapter) run(ctx context.Context, t compiledTool, args map[string]string, ev *protocol.AuditEvent) (map[string]any, error) {
	vendor, ver, err := a.fetchChecked(ctx, t, args, ev)
	if err != nil {
		return nil, err
	}
	data, err := project(t, ver, vendor)
	if err != nil {
		return nil, err
	}
	return a.s.project(t.name, vendor, data), nil
}

// fetchChecked fetches the upstream answer for args and passes it through
// the transport, version, parse, schema and binding gates; it returns the
// validated vendor object and its version.
func (a *Adapter) fetchChecked(ctx context.Context, t compiledTool, args map[string]string, ev *protocol.AuditEvent) (map[string]any, version, error) {
	f, err := a.fetcher.Get(ctx, a.base+t.path(a.escaped(args)))
	f.Audit(ev)
	if err != nil {
		return nil, version{}, err
	}
	name, ver, err := t.upstreamVersion(f.Header)
	if err != nil {
		return nil, ver, err
	}
	v, err := a.decode(t, ver, f)
	if id, ok := a.s.requestID(v); ok {
		ev.RequestID = id
	}
	if err != nil {
		return nil, ver, err
	}
	if err := t.schemas.vendor[name].Validate(v); err != nil {
		return nil, ver, err
	}
	vendor, ok := v.(map[string]any)
	if !ok {
		return nil, ver, gate.Reject(protocol.GateSchema, protocol.ReasonSchemaViolation, "body is not an object")
	}
	if err := a.bind(ver, args, vendor); err != nil {
		return nil, ver, err
	}
	return vendor, ver, nil
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
	kv, err := a.s.parseText(f.Raw, ver.lines)
	if err != nil {
		return nil, err
	}
	v := make(map[string]any, len(kv))
	for k, s := range kv {
		v[k] = s
	}
	return v, nil
}

// escaped returns args, each escaped as a path segment (settings.escape).
func (a *Adapter) escaped(args map[string]string) map[string]string {
	out := make(map[string]string, len(args))
	for k, v := range args {
		out[k] = a.s.escape(v)
	}
	return out
}
