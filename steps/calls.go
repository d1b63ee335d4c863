package steps

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/mocks"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
)

// callRaw sends body, as it is, as the invocation of tool.
func (w *world) callRaw(ctx context.Context, tool string, body []byte) error {
	if err := w.needV1("a raw invocation body"); err != nil {
		return err
	}
	return w.send(ctx, tool, body, func(cctx context.Context, inst targets.Instance) (harness.Output, error) {
		out, err := w.suite.Client.Post(cctx, inst.URL(), protocol.InvokePath(tool), body, w.token())
		return harness.HTTPOutput(out), err
	})
}

// callWithApproval calls tool again with args and the scenario's approval.
func (w *world) callWithApproval(ctx context.Context, tool, args string) error {
	if err := w.needApprovals(); err != nil {
		return err
	}
	if w.approval == "" {
		return fmt.Errorf("no approval to present: a step such as `the agent sees the call pending approval` comes first")
	}
	var a json.RawMessage
	if err := json.Unmarshal([]byte(args), &a); err != nil {
		return fmt.Errorf("the arguments in the scenario are not JSON: %w", err)
	}
	body, err := json.Marshal(map[string]any{"arguments": a, "approval_id": w.approval})
	if err != nil {
		return err
	}
	return w.callRaw(ctx, tool, body)
}

// callCut sends the invocation of tool with a Content-Length for the whole
// body but all of it except its last byte, then hangs up: a streamed
// proposal cut just before its end, the one cut a lenient reader can
// repair into a whole call.
func (w *world) callCut(ctx context.Context, tool, args string) error {
	if err := w.needV1("a cut invocation body"); err != nil {
		return err
	}
	body := fmt.Appendf(nil, `{"arguments": %s}`, args)
	n := len(body) - 1
	return w.send(ctx, tool, body, func(cctx context.Context, inst targets.Instance) (harness.Output, error) {
		out, err := cutPost(cctx, inst.URL(), protocol.InvokePath(tool), w.token(), body, n)
		return harness.HTTPOutput(out), err
	})
}

// cutPost writes a request whose body stops after n of its bytes, closes
// the writing side, and reads whatever the target answers.
func cutPost(ctx context.Context, base, path, token string, body []byte, n int) (targets.Output, error) {
	u, err := url.Parse(base)
	if err != nil {
		return targets.Output{}, err
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return targets.Output{}, fmt.Errorf("%w: %v", targets.ErrConnection, err)
	}
	defer conn.Close()
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n\r\n",
		path, u.Host, token, len(body))
	if _, err := io.WriteString(conn, head); err != nil {
		return targets.Output{}, err
	}
	if _, err := conn.Write(body[:n]); err != nil {
		return targets.Output{}, err
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
	}
	out := targets.Output{}
	resp, err := http.ReadResponse(bufio.NewReader(io.LimitReader(conn, 1<<20)), nil)
	if err != nil {
		return out, nil // hanging up without an answer is a fine reaction to a cut body
	}
	defer resp.Body.Close()
	out.StatusLine, out.StatusCode, out.Header = resp.Proto+" "+resp.Status, resp.StatusCode, resp.Header
	out.Body, _ = io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return out, nil
}

// seesPending checks the pending_approval outcome and keeps its approval.
func (w *world) seesPending() error {
	if err := w.needApprovals(); err != nil {
		return err
	}
	r, err := w.result()
	if err != nil {
		return err
	}
	if r.outcome != protocol.OutcomePendingApproval {
		return w.note(reports.EvidenceMismatch, "the agent saw outcome %q, want %s", r.outcome, protocol.OutcomePendingApproval)
	}
	w.approval = r.approvalID
	return nil
}

// decideApproval plays the human: approve or refuse the pending call.
func (w *world) decideApproval(ctx context.Context, verb string) error {
	if err := w.needApprovals(); err != nil {
		return err
	}
	if w.approval == "" {
		return fmt.Errorf("no pending approval to decide")
	}
	approve := verb == "approves"
	cctx, cancel := context.WithTimeout(ctx, w.suite.Profile.CallTimeout())
	defer cancel()
	out, err := w.suite.Client.Approve(cctx, w.lane.Target.URL(), w.approval, approve, "")
	if err != nil {
		return w.note(reports.EvidenceTarget, "the human's answer to approval %s failed: %v", w.approval, err)
	}
	var got struct {
		ApprovalID string `json:"approval_id"`
		Status     string `json:"status"`
	}
	want := map[bool]string{true: "approved", false: "refused"}[approve]
	if out.StatusCode != http.StatusOK || json.Unmarshal(out.Body, &got) != nil || got.Status != want || got.ApprovalID != w.approval {
		return w.note(reports.EvidenceMismatch, "the approval endpoint answered %s %q, want 200 with status %q", out.StatusLine, tail(string(out.Body), 200), want)
	}
	return nil
}

// approvalExpires waits until the approval's time to live, from the
// corpus's policy, has passed.
func (w *world) approvalExpires(ctx context.Context) error {
	ttl, err := w.suite.Corpus.ApprovalTTL()
	if err != nil {
		return err
	}
	select {
	case <-time.After(ttl + 250*time.Millisecond):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// auditDecision checks the decision record of the latest call's audit
// event: its shape (the corpus's decision schema) and its verdict.
func (w *world) auditDecision(ctx context.Context, decision, reason string) error {
	ev, err := w.auditFor(ctx)
	if err != nil {
		return err
	}
	if len(ev.Decision) == 0 || string(ev.Decision) == "null" {
		return w.note(reports.EvidenceAudit, "the audit event has no decision record")
	}
	v, err := judge.ParseJSON(ev.Decision, agentLimits)
	if err != nil {
		return w.note(reports.EvidenceAudit, "the decision record is not strict JSON: %v", err)
	}
	schema, err := w.suite.decisionSchema()
	if err != nil {
		return err
	}
	if err := schema.Validate(v); err != nil {
		return w.note(reports.EvidenceAudit, "the decision record breaks its schema: %s", oneLine(err))
	}
	m, _ := v.(map[string]any)
	want := decisionRecord{Decision: decision, Reason: reason}
	got := decisionRecord{Decision: fmt.Sprint(m["decision"]), Reason: fmt.Sprint(m["reason"])}
	if got != want {
		return w.auditMismatch(fmt.Sprintf("the audit records %s; want %s", got, want), want, got)
	}
	return nil
}

// receivedOn checks the requests the upstream received on one route, and
// withKey that each carried the approval as its Idempotency-Key.
func (w *world) receivedOn(n int, method, path string, withKey bool) error {
	got := 0
	var entries []mocks.Entry
	journal := w.lane.Upstream.Journal()
	for _, e := range journal {
		if e.Method == method && e.Path == path {
			got++
			entries = append(entries, e)
		}
	}
	if all := w.requests(); all > len(journal) {
		return w.note(reports.EvidenceJournal, "the upstream received %d requests; its journal kept the first %d, so the count on %s %s cannot be proven", all, len(journal), method, path)
	}
	if got != n {
		return w.note(reports.EvidenceJournal, "the upstream received %d request(s) to %s %s, want %d", got, method, path, n)
	}
	if !withKey {
		return nil
	}
	for _, e := range entries {
		if k := e.Header.Get(protocol.IdempotencyKeyHeader); k == "" || k != w.approval {
			return w.note(reports.EvidenceJournal, "request %d to %s %s carried Idempotency-Key %q, want the approval %q", e.Seq, method, path, k, w.approval)
		}
	}
	return nil
}

// callSteps registers the steps of the call side: sessions, raw and cut
// calls, approvals and what they leave in the audit log and the journal.
func callSteps(r *registrar) {
	const req = `(GET|POST|PUT|PATCH|DELETE) (\S+)`
	r.arrange(`^the agent's session is "([^"]*)"$`, on(func(w *world, token string) error {
		if err := w.needPolicy(); err != nil {
			return err
		}
		w.session = token
		return nil
	}))
	r.act(`^the agent calls "([^"]*)" again with (\{.*\}) and the approval$`, func(ctx context.Context, tool, args string) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.callWithApproval(ctx, tool, args)
	})
	r.act(`^the agent calls "([^"]*)" with the raw body:$`, func(ctx context.Context, tool string, doc *godog.DocString) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.callRaw(ctx, tool, []byte(strings.TrimSpace(doc.Content)))
	})
	r.act(`^the agent's call to "([^"]*)" with (\{.*\}) is cut before its last byte$`, func(ctx context.Context, tool, args string) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.callCut(ctx, tool, args)
	})
	r.assert(`^the agent sees the call pending approval$`, on((*world).seesPending))
	// A human's answer is an act, not an assertion: like the agent's call it
	// is a request to the target that the scenario's later Then steps judge.
	// It fails only when the answer cannot be given (no pending approval, the
	// endpoint does not answer 200 with that status), as a call fails when
	// it cannot be made.
	r.act(`^a human (approves|refuses) the pending call$`, func(ctx context.Context, verb string) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.decideApproval(ctx, verb)
	})
	r.arrange(`^the approval expires$`, func(ctx context.Context) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.approvalExpires(ctx)
	})
	r.strictAssert(`^the audit records the decision "(allow|deny|ask)" with reason "([^"]+)"$`, func(ctx context.Context, decision, reason string) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.auditDecision(ctx, decision, reason)
	})
	r.assert(`^the upstream received (\d+) requests? to `+req+`$`, on(func(w *world, n int, m, p string) error {
		return w.receivedOn(n, m, p, false)
	}))
	r.assert(`^the upstream received (\d+) requests? to `+req+` with the approval as idempotency key$`, on(func(w *world, n int, m, p string) error {
		return w.receivedOn(n, m, p, true)
	}))
}
