package mutant

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolcert/toolcert/adapters/internal/pipeline"
	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/internal/testpolicy"
)

// callPolicy is the corpus's policy, which the harness hands every target.
var callPolicy = testpolicy.Builtin()

const (
	emailArgs  = `{"to":"alice@example.com","subject":"Q3 report","body":"Attached."}`
	refundArgs = `{"order_id":"ord_ABC123","amount_cents":500,"reason":"damaged"}`
	orderOK    = `{"order_id":"ord_ABC123","account_id":"acct-100","refundable_cents":1500,"currency":"USD"}`
)

// caller drives one adapter through the agent's and the human's calls.
type caller struct {
	tb   testing.TB
	h    http.Handler
	last string // body of the last agent call
}

// invoke calls tool with the bearer token and the raw body.
func (c *caller) invoke(tool, token, body string) string {
	req := httptest.NewRequest("POST", "/v1/tools/"+tool+"/invoke", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, req)
	c.last = rec.Body.String()
	return c.last
}

// approve answers the approval of a pending_approval envelope.
func (c *caller) approve(pending string) string {
	v, _ := gate.ParseJSON([]byte(pending), gate.DefaultLimits())
	obj, _ := v.(map[string]any)
	id, _ := obj["approval_id"].(string)
	if id == "" {
		c.tb.Fatalf("not pending: %s", pending)
	}
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/approvals/"+id, strings.NewReader(`{"approve":true}`)))
	return id
}

func TestCallMutantsDifferFromTheReference(t *testing.T) {
	withApproval := func(args, id string) string { return `{"arguments":` + args + `,"approval_id":"` + id + `"}` }
	tests := []struct {
		mutant string
		policy string
		steps  func(c *caller)
		mark   string // in the mutant's last answer, not in the reference's
	}{
		{"no-allowlist", testpolicy.With(testpolicy.Disallow("request_refund")), func(c *caller) {
			c.invoke("request_refund", "toolcert-agent", `{"arguments":`+refundArgs+`}`)
		}, "requires_human_review"},
		{"case-insensitive-tool", callPolicy, func(c *caller) {
			c.invoke("Request_Refund", "toolcert-agent", `{"arguments":`+refundArgs+`}`)
		}, "requires_human_review"},
		{"case-insensitive-tool", callPolicy, func(c *caller) {
			c.invoke("request_refund%20", "toolcert-agent", `{"arguments":`+refundArgs+`}`)
		}, "requires_human_review"},
		{"grant-not-checked", callPolicy, func(c *caller) {
			c.invoke("request_refund", "reader-token", `{"arguments":`+refundArgs+`}`)
		}, "requires_human_review"},
		{"ask-executes", callPolicy, func(c *caller) {
			c.invoke("send_email", "toolcert-agent", `{"arguments":`+emailArgs+`}`)
		}, `"sent"`},
		{"approval-reusable", callPolicy, func(c *caller) {
			id := c.approve(c.invoke("send_email", "toolcert-agent", `{"arguments":`+emailArgs+`}`))
			c.invoke("send_email", "toolcert-agent", withApproval(emailArgs, id))
			c.invoke("send_email", "toolcert-agent", withApproval(emailArgs, id))
		}, `"sent"`},
		{"arguments-not-rebound", callPolicy, func(c *caller) {
			id := c.approve(c.invoke("send_email", "toolcert-agent", `{"arguments":`+emailArgs+`}`))
			c.invoke("send_email", "toolcert-agent", withApproval(strings.Replace(emailArgs, "alice", "mallory", 1), id))
		}, `"sent"`},
		{"model-account-trusted", callPolicy, func(c *caller) {
			c.invoke("request_refund", "other-token", `{"arguments":`+strings.Replace(refundArgs, `"reason"`, `"account_id":"acct-100","reason"`, 1)+`}`)
		}, "requires_human_review"},
		{"partial-stream-acted-on", callPolicy, func(c *caller) {
			c.invoke("request_refund", "toolcert-agent", `{"arguments":`+strings.TrimSuffix(refundArgs, `aged"}`))
		}, "requires_human_review"},
	}
	for _, tt := range tests {
		t.Run(tt.mutant, func(t *testing.T) {
			refOut, refSent := callRun(t, "", tt.policy, tt.steps)
			mutOut, mutSent := callRun(t, tt.mutant, tt.policy, tt.steps)
			if strings.Contains(refOut, tt.mark) || !strings.Contains(mutOut, tt.mark) {
				t.Errorf("want %q in the mutant's answer only:\nreference %s\nmutant    %s", tt.mark, refOut, mutOut)
			}
			if mutSent <= refSent {
				t.Errorf("upstream requests: reference %d, mutant %d; want more from the mutant", refSent, mutSent)
			}
		})
	}
}

// callRun runs steps on the reference (mutant "") or a mutant with policy
// and an upstream serving orderOK and accepting emails; it returns the
// last agent answer and the upstream requests.
func callRun(tb testing.TB, mutant, policy string, steps func(c *caller)) (string, int) {
	tb.Helper()
	up, count := countingUpstream(tb)
	a := newCallTarget(tb, mutant, policy, up.URL)
	c := &caller{tb: tb, h: a}
	steps(c)
	return c.last, count()
}

// countingUpstream serves orderOK on GET and 202 on POST, and counts.
func countingUpstream(tb testing.TB) (*httptest.Server, func() int) {
	tb.Helper()
	var mu sync.Mutex
	n := 0
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		mu.Unlock()
		if r.Method == "POST" {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, orderOK)
	}))
	tb.Cleanup(up.Close)
	return up, func() int {
		mu.Lock()
		defer mu.Unlock()
		return n
	}
}

// newCallTarget builds the reference (mutant "") or a mutant with policy,
// its audit discarded unless opts say otherwise; it is closed at cleanup.
func newCallTarget(tb testing.TB, mutant, policy, upstreamURL string, opts ...pipeline.Option) *pipeline.Adapter {
	tb.Helper()
	p, err := gate.ParsePolicy([]byte(policy))
	if err != nil {
		tb.Fatal(err)
	}
	cfg := testConfig(upstreamURL)
	cfg.Policy = p
	opts = append([]pipeline.Option{pipeline.WithAuditWriter(io.Discard)}, opts...)
	var a *pipeline.Adapter
	if mutant == "" {
		a, err = pipeline.New(cfg, opts...)
	} else {
		a, err = build(mutant, cfg, opts...)
	}
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { a.Close() })
	return a
}

func TestPartialStreamOverTheWire(t *testing.T) {
	whole := `{"arguments":` + refundArgs + `}`
	cut := whole[:strings.Index(whole, `"damaged"`)+4]
	for _, mutant := range []string{"", "partial-stream-acted-on"} {
		up, count := countingUpstream(t)
		srv := httptest.NewServer(newCallTarget(t, mutant, callPolicy, up.URL))
		t.Cleanup(srv.Close)
		c, err := net.DialTimeout("tcp", srv.Listener.Addr().String(), 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(5 * time.Second))
		fmt.Fprintf(c, "POST /v1/tools/request_refund/invoke HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer toolcert-agent\r\nContent-Length: %d\r\n\r\n%s", len(whole), cut)
		c.(*net.TCPConn).CloseWrite()
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err == nil {
			resp.Body.Close()
		}
		c.Close()
		if want := map[string]int{"": 0, "partial-stream-acted-on": 1}[mutant]; count() != want {
			t.Errorf("mutant %q: upstream requests %d, want %d", mutant, count(), want)
		}
	}
}
