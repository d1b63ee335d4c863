package steps

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/protocol"
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

// maxAuditBytes bounds how much of an audit log the harness reads.
const maxAuditBytes = 64 << 20

// errNoAudit means the harness has no audit log to read for this target.
var errNoAudit = errors.New("the target's audit log is not available to the harness (with --target-url, pass --audit-file)")

// auditFor returns the audit event the target wrote for the agent's call,
// waiting briefly for a target that writes it after answering.
func (w *world) auditFor(ctx context.Context) (auditEvent, error) {
	env, err := w.envelope()
	if err != nil {
		return auditEvent{}, err
	}
	if w.lane.AuditFile == "" {
		return auditEvent{}, errNoAudit
	}
	id := env.str("request_id")
	ctx, cancel := context.WithTimeout(ctx, protocol.AuditGrace)
	defer cancel()
	for {
		ev, found, err := findAudit(w.lane.AuditFile, w.call.auditFrom, id)
		if err != nil {
			return auditEvent{}, err
		}
		if found {
			return ev, nil
		}
		select {
		case <-ctx.Done():
			return auditEvent{}, w.note(reports.EvidenceAudit, "the audit log %s has no event for request_id %q", w.lane.AuditFile, id)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// findAudit looks for the event of requestID in the audit log at path,
// reading from offset from: where the log ended before the call.
func findAudit(path string, from int64, requestID string) (auditEvent, bool, error) {
	lines, err := AuditEvents(path, from, requestID)
	if err != nil || len(lines) == 0 {
		return auditEvent{}, false, err
	}
	var ev auditEvent
	if err := json.Unmarshal(lines[0], &ev); err != nil {
		return auditEvent{}, false, fmt.Errorf("audit event of %s: %w", requestID, err)
	}
	return ev, true, nil
}

// AuditEvents returns the events of requestID in the JSON Lines audit log
// at path, reading from offset from (0 for the whole log) and at most
// 64 MiB. A log that does not exist yet holds no event; a line that is not
// JSON is passed over.
func AuditEvents(path string, from int64, requestID string) ([]json.RawMessage, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open audit log: %w", err)
	}
	defer f.Close()
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return nil, fmt.Errorf("seek audit log: %w", err)
	}
	var out []json.RawMessage
	sc := bufio.NewScanner(io.LimitReader(f, maxAuditBytes))
	sc.Buffer(make([]byte, 0, 4<<10), 4<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		var ev struct {
			RequestID string `json:"request_id"`
		}
		if len(line) > 0 && json.Unmarshal(line, &ev) == nil && ev.RequestID == requestID {
			out = append(out, bytes.Clone(line))
		}
	}
	return out, sc.Err()
}

type gateRecord struct{ Gate, Reason string }

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
	if diff := cmp.Diff(want, got); diff != "" {
		w.evidence = append(w.evidence, reports.Evidence{Kind: reports.EvidenceAudit,
			Message: "the audit records another gate or reason", Diff: diff})
		return fmt.Errorf("the audit records another gate or reason (-want +got):\n%s", diff)
	}
	if !withSHA {
		return nil
	}
	return w.auditSHA(ev)
}

// auditSHA checks raw_sha256 against the bytes the mock actually wrote in
// its last answer.
func (w *world) auditSHA(ev auditEvent) error {
	j := w.lane.Upstream.Journal()
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

// auditSteps registers the Then steps that read the target's audit log.
// The gate step comes twice, with and without the sha256 clause, so that
// each assertion is its own definition.
func auditSteps(r *registrar) {
	const gateStep = `^the audit records gate "([^"]+)"(?: and reason "([^"]+)")? for that request`
	r.assert(gateStep+`$`, func(ctx context.Context, gate, reason string) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.auditGate(ctx, gate, reason, false)
	})
	r.assert(gateStep+`, with the sha256 of the served body$`, func(ctx context.Context, gate, reason string) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.auditGate(ctx, gate, reason, true)
	})
	r.assert(`^the audit records (\d+) attempts?$`, func(ctx context.Context, n int) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.auditAttempts(ctx, n)
	})
	r.assert(`^the audit records as many attempts as the upstream received requests$`, func(ctx context.Context) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.auditAttemptsMatchJournal(ctx)
	})
}

// auditSize is where the audit log at path ends now (0 when there is none
// yet): a call's event is written after it.
func auditSize(path string) int64 {
	if path == "" {
		return 0
	}
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}
