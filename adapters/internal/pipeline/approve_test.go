package pipeline

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// flowStep is one step of an approval flow: an agent call of send_email, a
// human's answer, or the clock moving.
type flowStep struct {
	op         string // "ask", "redeem", "approve", "refuse", "wait"
	args       string // for redeem: the arguments, emailArgs when ""
	id         string // for redeem and approve: the approval, the flow's when ""
	wait       time.Duration
	wantStatus int
	wantBody   string // approve: exact; redeem: the outcome's code or "sent"
	wantSent   int    // POST /emails seen after the step
}

func TestApprovalFlows(t *testing.T) {
	ask := flowStep{op: "ask", wantStatus: 200}
	approve := flowStep{op: "approve", wantStatus: 200, wantBody: `{"approval_id":"{APR}","status":"approved"}`}
	sent := flowStep{op: "redeem", wantStatus: 200, wantBody: "sent", wantSent: 1}
	tests := []struct {
		name  string
		steps []flowStep
	}{
		{"approved call is sent once", []flowStep{ask, approve, sent}},
		{"replayed approval", []flowStep{ask, approve, sent, {op: "redeem", wantStatus: 200, wantBody: "DENIED", wantSent: 1}}},
		{"refused", []flowStep{ask, {op: "refuse", wantStatus: 200, wantBody: `{"approval_id":"{APR}","status":"refused"}`},
			{op: "redeem", wantStatus: 200, wantBody: "DENIED"}}},
		{"not approved yet", []flowStep{ask, {op: "redeem", wantStatus: 200, wantBody: "DENIED"}, approve, sent}},
		{"other arguments", []flowStep{ask, approve,
			{op: "redeem", args: strings.Replace(emailArgs, "alice", "mallory", 1), wantStatus: 200, wantBody: "DENIED"}, sent}},
		{"expired before the answer", []flowStep{ask, {op: "wait", wait: time.Second},
			{op: "approve", wantStatus: 409, wantBody: `{"error":"approval_expired"}`}, {op: "redeem", wantStatus: 200, wantBody: "DENIED"}}},
		{"expired before the call", []flowStep{ask, approve, {op: "wait", wait: time.Second}, {op: "redeem", wantStatus: 200, wantBody: "DENIED"}}},
		{"answered twice", []flowStep{ask, approve, {op: "refuse", wantStatus: 409, wantBody: `{"error":"approval_decided"}`}, sent}},
		{"unknown approval", []flowStep{ask, {op: "approve", id: "apr.AAAAAAAAAAAAAAAAAAAA", wantStatus: 404, wantBody: `{"error":"unknown_approval"}`}}},
		{"hostile approval id", []flowStep{ask, {op: "approve", id: "%3Cscript%3E", wantStatus: 404, wantBody: `{"error":"unknown_approval"}`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			up := newCallUpstream(t, reply{}, 202, `{"id":"CANARY-upstream"}`)
			a := newCallAdapter(t, up.URL)
			var id string
			for i, s := range tt.steps {
				id = a.runStep(t, i, s, id)
				if got := countSent(up.requests()); got != s.wantSent {
					t.Fatalf("step %d %s: upstream got %d POST /emails, want %d", i, s.op, got, s.wantSent)
				}
			}
		})
	}
}

// runStep runs step i of a flow whose approval is id and returns the
// approval id (set by "ask").
func (a *callAdapter) runStep(tb testing.TB, i int, s flowStep, id string) string {
	tb.Helper()
	target := id
	if s.id != "" {
		target = s.id
	}
	switch s.op {
	case "wait":
		a.clock.advance(s.wait)
	case "ask":
		_, body, _ := a.invoke(tb, "send_email", agent, emailArgs, "")
		return approvalID(tb, body)
	case "approve", "refuse":
		status, body, _ := a.post(tb, "/v1/approvals/"+target, "", `{"approve":`+map[bool]string{true: "true", false: "false"}[s.op == "approve"]+`}`)
		want := strings.ReplaceAll(s.wantBody, "{APR}", id)
		if status != s.wantStatus || body != want {
			tb.Fatalf("step %d %s: %d %s, want %d %s", i, s.op, status, body, s.wantStatus, want)
		}
	case "redeem":
		args := emailArgs
		if s.args != "" {
			args = s.args
		}
		status, body, ev := a.invoke(tb, "send_email", agent, args, `,"approval_id":"`+target+`"`)
		want := string(gate.Failure("send_email", ev.RequestID, protocol.CodeDenied, false))
		wantDecision := decision("send_email", true, true, "send", "deny", "grant_missing")
		if s.wantBody == "sent" {
			want = `{"tool":"send_email","request_id":"` + ev.RequestID + `","outcome":"success","data":{"status":"sent"}}`
			wantDecision = decision("send_email", true, true, "send", "allow", "ok")
		}
		if status != s.wantStatus || body != want {
			tb.Fatalf("step %d redeem: %d %s, want %d %s (audit %s %s)", i, status, body, s.wantStatus, want, ev.Reason, ev.Detail)
		}
		if diff := cmp.Diff(wantDecision, ev.Decision); diff != "" {
			tb.Errorf("step %d redeem: decision (-want +got):\n%s", i, diff)
		}
	}
	return id
}

// countSent counts the POST /emails requests.
func countSent(reqs []request) int {
	n := 0
	for _, r := range reqs {
		if r.Method == "POST" && r.Path == "/emails" {
			n++
		}
	}
	return n
}

func TestSendRequest(t *testing.T) {
	up := newCallUpstream(t, reply{}, 200, `{"id":"m-1"}`)
	a := newCallAdapter(t, up.URL)
	_, body, _ := a.invoke(t, "send_email", agent, emailArgs, "")
	id := approvalID(t, body)
	a.post(t, "/v1/approvals/"+id, "", `{"approve":true}`)
	_, _, ev := a.invoke(t, "send_email", agent, ` {"body":"Attached.", "subject":"Q3 report", "to":"alice@example.com"} `, `,"approval_id":"`+id+`"`)
	want := []request{{Method: "POST", Path: "/emails", Body: `{"body":"Attached.","subject":"Q3 report","to":"alice@example.com"}`, Key: id}}
	if diff := cmp.Diff(want, up.requests()); diff != "" {
		t.Errorf("upstream requests (-want +got):\n%s", diff)
	}
	if ev.Upstream == nil || ev.Upstream.Method != "POST" || ev.Upstream.Status != 200 || ev.Attempts != 1 || ev.Reason != "ok" {
		t.Errorf("audit upstream %+v, attempts %d, reason %s", ev.Upstream, ev.Attempts, ev.Reason)
	}
}

func TestSendFailures(t *testing.T) {
	const canary = "CANARY-9f1e"
	tests := []struct {
		name       string
		status     int
		body       string
		wantBody   string // "sent" or the failure code
		wantReason string
	}{
		{"201 is sent", 201, `{"id":"` + canary + `"}`, "sent", "ok"},
		{"2xx past the byte limit is still sent", 200, strings.Repeat(canary, 200), "sent", "ok"},
		{"500 is not retried", 500, canary, "UPSTREAM_UNAVAILABLE", "status_5xx"},
		{"429", 429, canary, "UPSTREAM_UNAVAILABLE", "status_429"},
		{"404", 404, canary, "UPSTREAM_UNAVAILABLE", "status_404"},
		{"409", 409, canary, "UPSTREAM_UNAVAILABLE", "status_4xx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			up := newCallUpstream(t, reply{}, tt.status, tt.body)
			a := newCallAdapter(t, up.URL)
			_, body, _ := a.invoke(t, "send_email", agent, emailArgs, "")
			id := approvalID(t, body)
			a.post(t, "/v1/approvals/"+id, "", `{"approve":true}`)
			_, body, ev := a.invoke(t, "send_email", agent, emailArgs, `,"approval_id":"`+id+`"`)
			want := string(gate.Failure("send_email", ev.RequestID, protocol.Code(tt.wantBody), false))
			if tt.wantBody == "sent" {
				want = `{"tool":"send_email","request_id":"` + ev.RequestID + `","outcome":"success","data":{"status":"sent"}}`
			}
			if body != want || ev.Reason != tt.wantReason {
				t.Errorf("got %s (audit %s), want %s (%s)", body, ev.Reason, want, tt.wantReason)
			}
			if n := countSent(up.requests()); n != 1 {
				t.Errorf("upstream got %d POST /emails, want 1", n)
			}
		})
	}
}

func TestApprovalBody(t *testing.T) {
	up := newCallUpstream(t, reply{}, 202, `{}`)
	a := newCallAdapter(t, up.URL)
	_, body, _ := a.invoke(t, "send_email", agent, emailArgs, "")
	id := approvalID(t, body)
	for _, bad := range []string{``, `{}`, `{"approve":"yes"}`, `{"approve":1}`, `{"approve":true,"by":"agent"}`,
		`{"approve":true,"approve":false}`, `{"approve":true`, `[true]`, `{"approve":true} x`, `{"Approve":true}`} {
		status, body, _ := a.post(t, "/v1/approvals/"+id, "", bad)
		if status != 400 || body != `{"error":"invalid_body"}` {
			t.Errorf("approve with %s: %d %s, want 400", bad, status, body)
		}
	}
	if status, _, _ := a.post(t, "/v1/approvals/"+id, "", `{"approve":true}`); status != 200 {
		t.Errorf("the approval was decided by a bad body: %d", status)
	}
}

func TestWithoutPolicy(t *testing.T) {
	up := newCallUpstream(t, json200(orderOK), 202, `{}`)
	var audit syncBuffer
	a := newTestAdapter(t, up.URL, WithAuditWriter(&audit))
	for _, tool := range []string{"send_email", "request_refund", "purge_cache"} {
		args := map[string]string{"send_email": emailArgs, "request_refund": refundArgs, "purge_cache": purgeArgs}[tool]
		status, body := call(t, a, tool, `{"arguments":`+args+`}`)
		ev := lastEvent(t, audit.take())
		if status != 404 || body != strings.ReplaceAll(failure("unknown", "DENIED", false), "{ID}", ev.RequestID) {
			t.Errorf("%s without a policy: %d %s", tool, status, body)
		}
		if diff := cmp.Diff(decision(tool, true, false, "", "deny", "tool_not_allowlisted"), ev.Decision); diff != "" {
			t.Errorf("%s decision (-want +got):\n%s", tool, diff)
		}
	}
	if n := len(up.requests()); n != 0 {
		t.Errorf("upstream saw %d requests, want 0", n)
	}
}
