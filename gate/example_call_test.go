package gate_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// policyJSON is the call-side policy of docs/protocol.md, shortened.
const policyJSON = `{
  "allowlist": ["review_status", "send_email", "request_refund"],
  "sessions": {
    "toolcert-agent": {"subject": "agent-1", "account": "acct-100", "grants": ["read", "send", "refund"]},
    "reader-token":   {"subject": "reader",  "account": "acct-100", "grants": ["read_inbox"]}
  },
  "grants": {"review_status": "read", "send_email": "send", "request_refund": "refund"},
  "ask": ["send_email"],
  "approval_ttl": "1s"
}`

func ExampleParsePolicy() {
	p, err := gate.ParsePolicy([]byte(policyJSON))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Allowed("send_email"), p.Allowed("Send_Email"), p.NeedsApproval("send_email"), p.ApprovalTTL)
	fmt.Printf("%+v\n", p.Session("reader-token"))
	fmt.Printf("%+v\n", p.Session("no-such-token"))

	_, err = gate.ParsePolicy([]byte(`{"allowlist": ["send_email"], "admin": true}`))
	fmt.Println(errors.Is(err, gate.ErrPolicy))
	// Output:
	// true false true 1s
	// {Subject:reader Account:acct-100 Grants:[read_inbox]}
	// {Subject: Account: Grants:[]}
	// true
}

func ExampleLoadPolicy() {
	path := filepath.Join(os.TempDir(), fmt.Sprintf("policy-example-%d.json", os.Getpid()))
	defer os.Remove(path)
	os.WriteFile(path, []byte(policyJSON), 0o600)
	p, err := gate.LoadPolicy(path)
	fmt.Println(p.Allowlist, err)
	// Output:
	// [review_status send_email request_refund] <nil>
}

func ExamplePolicy_Decide() {
	p, _ := gate.ParsePolicy([]byte(policyJSON))
	for _, call := range []struct {
		tool, token string
		valid       bool
	}{
		{"review_status", "toolcert-agent", true},
		{"send_email", "toolcert-agent", true},
		{"send_email", "reader-token", true},
		{"request_refund", "toolcert-agent", false},
		{"delete_repo", "toolcert-agent", true},
	} {
		d := p.Decide(call.tool, call.valid, p.Session(call.token))
		fmt.Printf("%+v\n", d)
	}
	// Output:
	// {Tool:review_status ArgumentsValid:true ToolAllowed:true Grant:read Decision:allow Reason:ok}
	// {Tool:send_email ArgumentsValid:true ToolAllowed:true Grant:send Decision:ask Reason:ok}
	// {Tool:send_email ArgumentsValid:true ToolAllowed:true Grant:read_inbox Decision:deny Reason:grant_missing}
	// {Tool:request_refund ArgumentsValid:false ToolAllowed:true Grant:refund Decision:deny Reason:arguments_invalid}
	// {Tool:delete_repo ArgumentsValid:true ToolAllowed:false Grant:read Decision:deny Reason:tool_not_allowlisted}
}

func ExamplePolicy_Holds() {
	p, _ := gate.ParsePolicy([]byte(policyJSON))
	fmt.Println(p.Holds("request_refund", p.Session("toolcert-agent")))
	fmt.Println(p.Holds("request_refund", p.Session("reader-token")))
	// Output:
	// refund true
	// refund false
}

func ExampleApply() {
	p, _ := gate.ParsePolicy([]byte(policyJSON))
	// A schema-valid "allow" proposed for a session without the grant.
	proposed := protocol.Decision{Tool: "request_refund", ArgumentsValid: true, ToolAllowed: true,
		Grant: "refund", Decision: protocol.DecisionAllow, Reason: protocol.ReasonOK}
	fmt.Println(gate.ValidateDecision(proposed))
	fmt.Printf("%+v\n", gate.Apply(proposed, p, p.Session("reader-token")))
	// Output:
	// <nil>
	// {Tool:request_refund ArgumentsValid:true ToolAllowed:true Grant:read_inbox Decision:deny Reason:grant_missing}
}

func ExampleValidateDecision() {
	ok := protocol.Decision{Tool: "send_email", ArgumentsValid: true, ToolAllowed: true, Grant: "send", Decision: "ask", Reason: "ok"}
	fmt.Println(gate.ValidateDecision(ok))
	inconsistent := protocol.Decision{Tool: "send_email", ArgumentsValid: false, ToolAllowed: true, Grant: "send", Decision: "allow", Reason: "ok"}
	r, _ := gate.AsRejection(gate.ValidateDecision(inconsistent))
	fmt.Println(r.Gate, r.Reason)
	// Output:
	// <nil>
	// schema schema_violation
}

func ExampleDecisionSchema() {
	fmt.Println(gate.Closed(gate.DecisionSchema()))
	// Output:
	// <nil>
}

func ExampleNewApprovals() {
	now := time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC)
	a := gate.NewApprovals(time.Second, func() time.Time { return now })
	args := map[string]any{"to": "alice@example.com", "subject": "hi", "body": "hello"}
	bind := func(subject string) gate.Binding {
		return gate.Binding{Tool: "send_email", ArgsHash: gate.ArgumentsHash(args), Subject: subject}
	}
	id := a.Request(bind("agent-1"), "req.J7q94MkP")
	fmt.Println(gate.ApprovalIDPattern.MatchString(id))

	fmt.Println(a.Redeem(id, bind("agent-1"))) // nobody approved yet
	fmt.Println(a.Decide(id, true))
	args["to"] = "mallory@example.com"
	fmt.Println(a.Redeem(id, bind("agent-1"))) // other arguments
	args["to"] = "alice@example.com"
	fmt.Println(a.Redeem(id, bind("mallory"))) // another session
	fmt.Println(a.Redeem(id, bind("agent-1"))) // the call goes through, once
	fmt.Println(a.Redeem(id, bind("agent-1")))
	// Output:
	// true
	// approval not approved yet
	// approved <nil>
	// approval is for another tool, other arguments or another session
	// approval is for another tool, other arguments or another session
	// <nil>
	// approval already used
}

func ExampleApprovals_Decide() {
	now := time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC)
	a := gate.NewApprovals(time.Second, func() time.Time { return now })
	id := a.Request(gate.Binding{Tool: "send_email", ArgsHash: "hash"}, "req.J7q94MkP")
	fmt.Println(a.Decide(id, false))
	_, err := a.Decide(id, true)
	fmt.Println(errors.Is(err, gate.ErrApprovalDecided))
	fmt.Println(errors.Is(a.Redeem(id, gate.Binding{Tool: "send_email", ArgsHash: "hash"}), gate.ErrApprovalRefused))
	// Output:
	// refused <nil>
	// true
	// true
}

func ExampleApprovals_Redeem() {
	now := time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC)
	a := gate.NewApprovals(time.Second, func() time.Time { return now })
	id := a.Request(gate.Binding{Tool: "send_email", ArgsHash: "hash"}, "req.J7q94MkP")
	a.Decide(id, true)
	now = now.Add(time.Second) // the ttl has passed
	fmt.Println(errors.Is(a.Redeem(id, gate.Binding{Tool: "send_email", ArgsHash: "hash"}), gate.ErrApprovalExpired))
	// Output:
	// true
}

func ExampleApprovals_Request() {
	a := gate.NewApprovals(time.Minute, nil)
	id := a.Request(gate.Binding{Tool: "send_email", ArgsHash: "hash"}, "req.J7q94MkP")
	fmt.Println(len(id), id[:4])
	// Output:
	// 24 apr.
}

func ExampleArgumentsHash() {
	a, _ := gate.ParseJSON([]byte(`{"to":"alice@example.com","subject":"hi"}`), gate.DefaultLimits())
	b, _ := gate.ParseJSON([]byte(`{ "subject": "hi", "to": "alice@example.com" }`), gate.DefaultLimits())
	fmt.Println(gate.ArgumentsHash(a) == gate.ArgumentsHash(b), len(gate.ArgumentsHash(a)))
	// Output:
	// true 64
}

func ExampleFetcher_Post() {
	var key string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key = r.Header.Get("Idempotency-Key")
		w.WriteHeader(http.StatusAccepted)
		io.WriteString(w, `{"id":"m-1"}`)
	}))
	defer srv.Close()

	f := gate.NewFetcher()
	defer f.Close()
	got, err := f.Post(context.Background(), srv.URL+"/emails", []byte(`{"to":"alice@example.com"}`),
		http.Header{"Content-Type": {"application/json"}, "Idempotency-Key": {"apr.42"}})
	fmt.Println(got.Method, got.Status, got.Attempts, key, err)
	// Output:
	// POST 202 1 apr.42 <nil>
}

func ExamplePolicy_Allowed() {
	p, _ := gate.ParsePolicy([]byte(policyJSON))
	for _, tool := range []string{"send_email", "Send_Email", "send_email ", "s\u0435nd_email"} {
		fmt.Printf("%q %t\n", tool, p.Allowed(tool))
	}
	// Output:
	// "send_email" true
	// "Send_Email" false
	// "send_email " false
	// "sеnd_email" false
}

func ExamplePolicy_Session() {
	p, _ := gate.ParsePolicy([]byte(policyJSON))
	fmt.Println(p.Session("toolcert-agent").Account, p.Session("toolcert-agent").Grants)
	fmt.Println(len(p.Session("").Grants), len(p.Session("forged").Grants))
	// Output:
	// acct-100 [read send refund]
	// 0 0
}

func ExamplePolicy_NeedsApproval() {
	p, _ := gate.ParsePolicy([]byte(policyJSON))
	fmt.Println(p.NeedsApproval("send_email"), p.NeedsApproval("request_refund"))
	// Output:
	// true false
}
