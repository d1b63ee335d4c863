package steps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/reports"
)

// auditEvent is one line of the target's audit log (docs/protocol.md).
type auditEvent struct {
	RequestID      string         `json:"request_id"`
	Tool           string         `json:"tool"`
	AdapterVersion string         `json:"adapter_version"`
	Gate           string         `json:"gate"`
	Reason         string         `json:"reason"`
	Upstream       *auditUpstream `json:"upstream"`
	Attempts       int            `json:"attempts"`
	RawSHA256      string         `json:"raw_sha256"`
	// Decision is the call's decision record (A3), kept raw so the steps
	// can check it against its schema.
	Decision json.RawMessage `json:"decision"`
}

type auditUpstream struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	Status int    `json:"status"`
}

// auditFor returns the audit event the target wrote for the agent's call,
// waiting for a target that writes it after answering as long as
// docs/protocol.md allows. A log the harness cannot read, or that has no
// event for the call, fails the step with audit evidence saying why.
func (w *world) auditFor(ctx context.Context) (auditEvent, error) {
	if err := w.needAudit(); err != nil {
		return auditEvent{}, err
	}
	r, err := w.result()
	if err != nil {
		return auditEvent{}, err
	}
	id := r.requestID
	if id == "" {
		return auditEvent{}, notApplicable("the target's result names no request id to find its audit event by")
	}
	raw, err := w.lane.AuditEvent(ctx, w.call.Call, id)
	if ae := (*harness.AuditError)(nil); errors.As(err, &ae) {
		return auditEvent{}, w.note(reports.EvidenceAudit, "%s", ae.Error())
	}
	if err != nil {
		return auditEvent{}, err
	}
	var ev auditEvent
	if err := decodeAuditEvent(raw, &ev); err != nil {
		return auditEvent{}, w.note(reports.EvidenceAudit, "the audit event of request_id %q in %s does not have the protocol's fields: %v; it starts %q",
			id, w.lane.AuditFile, err, tail(string(raw), 200))
	}
	return ev, nil
}

// decodeAuditEvent reads an audit line into ev. Member names match
// exactly, as docs/protocol.md writes them and as the lane found the line
// by its request_id (harness.Lane.AuditEvent); a repeated member is read
// last-wins and invalid UTF-8 as U+FFFD, as encoding/json reads them: the
// line is the operator's record, judged by its gate and reason, not by its
// JSON hygiene. It costs a third of encoding/json's decoding, once per
// case.
func decodeAuditEvent(raw []byte, ev *auditEvent) error {
	return jsonv2.Unmarshal(raw, ev, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
}

type gateRecord struct{ Gate, Reason string }

// String reads "gate parse, reason syntax", or "gate parse" without a
// reason.
func (g gateRecord) String() string {
	s := "gate " + orQuoted(g.Gate)
	if g.Reason != "" {
		s += ", reason " + orQuoted(g.Reason)
	}
	return s
}

// orQuoted returns s as it is when it is a plain word (letters, digits,
// '_' and '-'), quoted otherwise: the adapter wrote it, and an empty value
// or a line break must show in a one-line message.
func orQuoted(s string) string {
	for _, c := range s {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) && c != '_' && c != '-' {
			return strconv.Quote(s)
		}
	}
	if s == "" {
		return `""`
	}
	return s
}

// auditGate checks the gate (and reason, when one is given) of the audit
// event of the agent's request; withSHA also checks its raw_sha256.
func (w *world) auditGate(ctx context.Context, gate, reason string, withSHA bool) error {
	ev, err := w.auditFor(ctx)
	if err != nil {
		return err
	}
	if ev.AdapterVersion == "" || ev.Tool == "" {
		return w.note(reports.EvidenceAudit, "the audit event lacks adapter_version or tool: %+v", ev)
	}
	want := gateRecord{Gate: gate, Reason: reason}
	got := gateRecord{Gate: ev.Gate, Reason: ev.Reason}
	if reason == "" {
		got.Reason = ""
	}
	if got != want {
		recorded := fmt.Sprintf("gate %s, reason %s", orQuoted(ev.Gate), orQuoted(ev.Reason))
		return w.auditMismatch(fmt.Sprintf("the audit records %s; want %s", recorded, want), want, got)
	}
	if !withSHA {
		return nil
	}
	return w.auditSHA(ev)
}

// decisionRecord is the verdict of a decision record (A3).
type decisionRecord struct{ Decision, Reason string }

// String reads "decision deny, reason grant_missing".
func (d decisionRecord) String() string {
	return "decision " + orQuoted(d.Decision) + ", reason " + orQuoted(d.Reason)
}

// auditMismatch records that the audit holds got where the step wants
// want, msg saying both in a line, and returns msg with the diff as the
// step's error.
func (w *world) auditMismatch(msg string, want, got any) error {
	diff := stableDiff(want, got)
	w.evidence = append(w.evidence, reports.Evidence{Kind: reports.EvidenceAudit, Message: msg, Diff: diff})
	return fmt.Errorf("%s (-want +got):\n%s", msg, diff)
}

// auditSHA checks raw_sha256 against the bytes the mock actually wrote in
// its last answer.
func (w *world) auditSHA(ev auditEvent) error {
	j := w.toolJournal()
	if len(j) == 0 {
		return w.note(reports.EvidenceJournal, "the upstream received no request, so no body was served")
	}
	served := j[len(j)-1].Served.BodySHA256
	if ev.RawSHA256 != served {
		return w.note(reports.EvidenceAudit, "the audit's raw_sha256 %q is not the sha256 of the served body %q", ev.RawSHA256, served)
	}
	return nil
}

func (w *world) auditAttempts(ctx context.Context, n int) error {
	ev, err := w.auditFor(ctx)
	if err != nil {
		return err
	}
	if ev.Attempts != n {
		return w.note(reports.EvidenceAudit, "the audit records %d attempts, want %d", ev.Attempts, n)
	}
	return nil
}

// auditAttemptsMatchJournal checks that the audit's attempts are the
// requests the upstream received.
func (w *world) auditAttemptsMatchJournal(ctx context.Context) error {
	return w.auditAttempts(ctx, w.requests())
}

// auditSteps registers the Then steps that read the target's audit log:
// the operator's record, which level safe does not ask for (its checks are
// protocol v1's, strict only). The gate step comes twice, with and without the sha256 clause, so that
// each assertion is its own definition.
func auditSteps(r *registrar) {
	const gateStep = `^the audit records gate "([^"]+)"(?: and reason "([^"]+)")? for that request`
	r.strictAssert(gateStep+`$`, func(ctx context.Context, gate, reason string) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.auditGate(ctx, gate, reason, false)
	})
	r.strictAssert(gateStep+`, with the sha256 of the served body$`, func(ctx context.Context, gate, reason string) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.auditGate(ctx, gate, reason, true)
	})
	r.strictAssert(`^the audit records (\d+) attempts?$`, func(ctx context.Context, n int) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.auditAttempts(ctx, n)
	})
	r.strictAssert(`^the audit records as many attempts as the upstream received requests$`, func(ctx context.Context) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.auditAttemptsMatchJournal(ctx)
	})
}
