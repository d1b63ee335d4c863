package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// maxCallBytes bounds the agent's request body, as docs/protocol.md says.
const maxCallBytes = 64 << 10

// adapter serves the agent's side of the protocol.
type adapter struct {
	tool  *ticketTool
	audit *gate.AuditLog
}

// serve listens on cfg.listen and answers until ctx is done.
func serve(ctx context.Context, cfg config, stderr io.Writer) error {
	audit := gate.NewAuditLog(stderr)
	if cfg.auditFile != "" {
		var err error
		if audit, err = gate.OpenAuditLog(cfg.auditFile); err != nil {
			return fmt.Errorf("open audit log: %w", err)
		}
	}
	defer audit.Close()

	fetcher := gate.NewFetcher(
		gate.WithMaxBytes(cfg.limits.MaxBytes),
		gate.WithMaxAttempts(cfg.maxAttempts),
		gate.WithDeadline(cfg.deadline),
		gate.WithReadTimeout(cfg.readTimeout),
	)
	defer fetcher.Close()
	tool, err := newTicketTool(cfg, fetcher)
	if err != nil {
		return err
	}
	a := &adapter{tool: tool, audit: audit}

	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	mux.HandleFunc("POST /v1/tools/{tool}/invoke", a.invoke)

	ln, err := net.Listen("tcp", cfg.listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      cfg.deadline + 10*time.Second,
		IdleTimeout:       30 * time.Second,
	}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// invoke answers POST /v1/tools/{tool}/invoke: one agent call, one audit
// event, one envelope.
func (a *adapter) invoke(w http.ResponseWriter, r *http.Request) {
	ev := protocol.AuditEvent{RequestID: gate.NewRequestID(), Tool: toolName, AdapterVersion: version}
	if name := r.PathValue("tool"); name != toolName {
		ev.Tool = "unknown"
		a.fail(w, http.StatusNotFound, ev, gate.Reject(protocol.GateAuthz, protocol.ReasonToolNotAllowlisted, "tool %q", name))
		return
	}
	args, err := readArguments(r.Body)
	if err != nil {
		a.fail(w, http.StatusBadRequest, ev, err)
		return
	}
	data, err := a.tool.call(r.Context(), args, &ev)
	if err != nil {
		a.fail(w, http.StatusOK, ev, err)
		return
	}
	body, err := gate.Success(toolName, ev.RequestID, data)
	if err != nil {
		a.fail(w, http.StatusOK, ev, gate.Reject(protocol.GateSchema, protocol.ReasonSchemaViolation, "encode data: %w", err))
		return
	}
	ev.Gate, ev.Reason = protocol.GateNone, protocol.ReasonOK
	a.answer(w, http.StatusOK, ev, body)
}

// readArguments reads the agent's body, which must be exactly
// {"arguments": {...}}, at most maxCallBytes long.
func readArguments(body io.Reader) (map[string]any, error) {
	raw, err := gate.ReadLimited(body, maxCallBytes)
	if err != nil {
		return nil, gate.Reject(protocol.GateAuthz, protocol.ReasonArgumentsInvalid, "read call: %w", err)
	}
	tree, err := gate.ParseJSON(raw, gate.DefaultLimits())
	if err != nil {
		return nil, gate.Reject(protocol.GateAuthz, protocol.ReasonArgumentsInvalid, "parse call: %w", err)
	}
	call, ok := tree.(map[string]any)
	args, isObject := call["arguments"].(map[string]any)
	if !ok || len(call) != 1 || !isObject {
		return nil, gate.Reject(protocol.GateAuthz, protocol.ReasonArgumentsInvalid, `call is not {"arguments": {...}}`)
	}
	return args, nil
}

// fail audits err and answers the fixed failure envelope: the gate's
// detail goes to the audit log only, never to the agent.
func (a *adapter) fail(w http.ResponseWriter, status int, ev protocol.AuditEvent, err error) {
	rej, ok := gate.AsRejection(err)
	if !ok { // every gate returns a *Rejection; anything else fails closed
		rej = gate.Reject(protocol.GateSchema, protocol.ReasonSchemaViolation, "unclassified: %w", err)
	}
	ev.Gate, ev.Reason, ev.Detail = rej.Gate, rej.Reason, rej.Detail()
	code, retryable := rej.Code()
	a.answer(w, status, ev, gate.Failure(ev.Tool, ev.RequestID, code, retryable))
}

// answer writes the audit event, then the envelope with the protocol's
// headers and none of the upstream's.
func (a *adapter) answer(w http.ResponseWriter, status int, ev protocol.AuditEvent, body []byte) {
	ev.Time = time.Now()
	a.audit.Write(ev) // a lost audit line must not change the agent's answer
	h := w.Header()
	h.Set("Content-Type", protocol.ContentTypeJSON)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(body)
}
