package pipeline

import (
	"context"
	"net/http"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// handleInvoke runs one agent call, writes its audit event, then answers.
func (a *Adapter) handleInvoke(w http.ResponseWriter, r *http.Request) {
	setBodyDeadline(w)
	ev := protocol.AuditEvent{RequestID: gate.NewRequestID(), Tool: protocol.UnknownTool, AdapterVersion: a.cfg.Version}
	status, body := a.invoke(r, &ev)
	ev.Time = a.cfg.Now()
	a.s.auditEvent(&ev)
	_ = a.audit.Write(ev) // the agent's answer does not depend on the operator's log
	writeJSON(w, status, body)
}

// writeJSON answers with body and the fixed headers of docs/protocol.md.
func writeJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", protocol.ContentTypeJSON)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(body)
}

// invoke returns the HTTP status and envelope of one agent call and fills
// ev with its outcome. The order is: find the tool, read and parse the
// whole body, check the arguments, decide (allowlist, arguments, grant),
// then deny, ask for an approval, or act.
func (a *Adapter) invoke(r *http.Request, ev *protocol.AuditEvent) (int, []byte) {
	s := a.policy.Session(bearer(r.Header))
	name, found := a.s.lookupTool(r.PathValue("tool"), a.names)
	t, ok := a.tools[name]
	if !found || !ok {
		d := gate.Apply(protocol.Decision{Tool: protocol.UnknownTool, Decision: protocol.DecisionDeny}, a.policy, s)
		ev.Decision = &d
		err := gate.Reject(protocol.GateAuthz, protocol.ReasonToolNotAllowlisted, "no tool %.64q", r.PathValue("tool"))
		return http.StatusNotFound, a.fail(ev, err)
	}
	ev.Tool = t.name
	inv, bodyErr := a.readInvocation(r)
	argsErr := bodyErr
	if argsErr == nil {
		argsErr = t.checkArguments(inv.args)
	}
	d, err := a.decide(t.name, argsErr == nil, s)
	ev.Decision = &d
	ctx := r.Context()
	if inv.repaired {
		ctx = context.WithoutCancel(ctx) // only with WithBodyRepair; the fetcher's deadline still holds
	}
	switch {
	case err != nil:
		return http.StatusOK, a.fail(ev, err)
	case d.Decision == protocol.DecisionDeny:
		return a.deny(ev, d, bodyErr, argsErr)
	case d.Decision == protocol.DecisionAsk:
		return a.ask(ctx, t, inv, s, ev)
	}
	return a.act(ctx, t, inv, s, ev, ev.RequestID)
}

// decide decides the call and checks the record against the closed
// decision schema; a record that fails it denies the call.
func (a *Adapter) decide(tool string, argumentsValid bool, s gate.Session) (protocol.Decision, error) {
	d := a.s.decide(a.policy, tool, argumentsValid, s)
	if err := gate.ValidateDecision(d); err != nil {
		return d, gate.Reject(protocol.GateAuthz, protocol.ReasonGrantMissing, "decision record: %w", err)
	}
	return d, nil // allow, ask or deny: the schema admits nothing else
}

// deny answers a denied call: a tool off the allowlist as an unknown tool
// (HTTP 404), a malformed body with HTTP 400, anything else as a DENIED
// tool result.
func (a *Adapter) deny(ev *protocol.AuditEvent, d protocol.Decision, bodyErr, argsErr error) (int, []byte) {
	switch d.Reason {
	case protocol.ReasonToolNotAllowlisted:
		ev.Tool = protocol.UnknownTool
		return http.StatusNotFound, a.fail(ev, gate.Reject(protocol.GateAuthz, protocol.ReasonToolNotAllowlisted, "%s is not on the allowlist", d.Tool))
	case protocol.ReasonArgumentsInvalid:
		if argsErr == nil {
			argsErr = denied("the decision says the arguments are invalid")
		}
		if bodyErr != nil {
			return http.StatusBadRequest, a.fail(ev, argsErr)
		}
		return http.StatusOK, a.fail(ev, argsErr)
	}
	return http.StatusOK, a.fail(ev, gate.Reject(protocol.GateAuthz, protocol.ReasonGrantMissing, "%s needs a grant the session lacks (it holds %q)", d.Tool, d.Grant))
}

// ask handles a call the policy marks ask: the first call gets a new
// approval and nothing is sent; a call carrying an approval acts only when
// the approval store lets it through for this tool, these arguments and
// this session.
// The audit record then holds the outcome: allow, or deny (grant_missing).
func (a *Adapter) ask(ctx context.Context, t compiledTool, inv invocation, s gate.Session, ev *protocol.AuditEvent) (int, []byte) {
	b := gate.Binding{Tool: t.name, ArgsHash: gate.ArgumentsHash(inv.args), Subject: s.Subject}
	if !inv.hasApproval {
		id := a.approvals.Request(b, ev.RequestID)
		ev.Gate, ev.Reason, ev.Detail = protocol.GateNone, protocol.ReasonOK, "pending approval "+id
		return http.StatusOK, gate.PendingApproval(t.name, ev.RequestID, id)
	}
	d := *ev.Decision
	ev.Decision = &d
	if err := a.approvals.Redeem(inv.approvalID, b); err != nil {
		d.Decision, d.Reason = protocol.DecisionDeny, protocol.ReasonGrantMissing
		return http.StatusOK, a.fail(ev, gate.Reject(protocol.GateAuthz, protocol.ReasonGrantMissing, "approval %.40q: %w", inv.approvalID, err))
	}
	d.Decision = protocol.DecisionAllow
	return a.act(ctx, t, inv, s, ev, inv.approvalID)
}

// act runs an allowed call: key is the Idempotency-Key of a call that
// sends (the approval id, or the request id of a call that needed none).
func (a *Adapter) act(ctx context.Context, t compiledTool, inv invocation, s gate.Session, ev *protocol.AuditEvent, key string) (int, []byte) {
	var data map[string]any
	var err error
	switch t.kind {
	case kindSend:
		data, err = a.send(ctx, t, inv.args, key, ev)
	case kindRefund:
		data, err = a.refund(ctx, t, inv.args, s, ev)
	default:
		data, err = a.run(ctx, t, t.stringArgs(inv.args), ev)
	}
	if err != nil {
		return http.StatusOK, a.fail(ev, err)
	}
	body, err := a.succeed(t, ev.RequestID, data)
	if err != nil {
		return http.StatusOK, a.fail(ev, err)
	}
	ev.Gate, ev.Reason = protocol.GateNone, protocol.ReasonOK
	return http.StatusOK, body
}
