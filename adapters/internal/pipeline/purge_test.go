package pipeline

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/internal/testpolicy"
	"github.com/toolcert/toolcert/protocol"
)

// purgePolicy is the test policy with purge_cache on the allowlist, needing
// grant admin, which only admin-token holds.
var purgePolicy = testpolicy.With(testpolicy.Allow("purge_cache"), purgeGrant, purgeAdmin)

// purgeGrant and purgeAdmin make purge_cache need grant admin and give
// admin-token that grant.
var (
	purgeGrant = testpolicy.Grant("purge_cache", "admin")
	purgeAdmin = testpolicy.Session("admin-token", "ops", "acct-100", "admin")
)

const (
	admin     = "admin-token"
	purgeArgs = `{"service":"web-app"}`
)

func TestPurgeCache(t *testing.T) {
	purged := `{"tool":"purge_cache","request_id":"{ID}","outcome":"success","data":{"status":"purged"}}`
	notListed := testpolicy.With(purgeGrant, purgeAdmin)
	tests := []struct {
		name         string
		policy       string
		token, args  string
		status       int // the upstream's answer to POST /cache/purge
		wantStatus   int
		wantBody     string // {ID} is the request id
		wantReason   string
		wantDecision *protocol.Decision
		wantRequests int // POST /cache/purge, each with the request id as key
	}{
		{name: "allowed with the admin grant: one POST, nothing of the answer passed on", policy: purgePolicy, token: admin, args: purgeArgs, status: 200,
			wantStatus: 200, wantBody: purged, wantReason: "ok", wantDecision: decision("purge_cache", true, true, "admin", "allow", "ok"), wantRequests: 1},
		{name: "any 2xx is purged", policy: purgePolicy, token: admin, args: purgeArgs, status: 204,
			wantStatus: 200, wantBody: purged, wantReason: "ok", wantDecision: decision("purge_cache", true, true, "admin", "allow", "ok"), wantRequests: 1},
		{name: "a 503 is not retried: the purge may have happened", policy: purgePolicy, token: admin, args: purgeArgs, status: 503,
			wantStatus: 200, wantBody: failure("purge_cache", "UPSTREAM_UNAVAILABLE", false), wantReason: "status_5xx",
			wantDecision: decision("purge_cache", true, true, "admin", "allow", "ok"), wantRequests: 1},
		{name: "without the admin grant nothing is sent", policy: purgePolicy, token: agent, args: purgeArgs,
			wantStatus: 200, wantBody: failure("purge_cache", "DENIED", false), wantReason: "grant_missing",
			wantDecision: decision("purge_cache", true, true, "read", "deny", "grant_missing")},
		{name: "a service outside the pattern is refused", policy: purgePolicy, token: admin, args: `{"service":"Web_App"}`,
			wantStatus: 200, wantBody: failure("purge_cache", "DENIED", false), wantReason: "arguments_invalid",
			wantDecision: decision("purge_cache", false, true, "admin", "deny", "arguments_invalid")},
		{name: "the arguments schema is closed", policy: purgePolicy, token: admin, args: `{"service":"web-app","all":true}`,
			wantStatus: 200, wantBody: failure("purge_cache", "DENIED", false), wantReason: "arguments_invalid",
			wantDecision: decision("purge_cache", false, true, "admin", "deny", "arguments_invalid")},
		{name: "off the allowlist it is an unknown tool, even with the grant", policy: notListed, token: admin, args: purgeArgs,
			wantStatus: 404, wantBody: failure("unknown", "DENIED", false), wantReason: "tool_not_allowlisted",
			wantDecision: decision("purge_cache", true, false, "admin", "deny", "tool_not_allowlisted")},
		{name: "the policy of docs/protocol.md does not list it", policy: testPolicy, token: agent, args: purgeArgs,
			wantStatus: 404, wantBody: failure("unknown", "DENIED", false), wantReason: "tool_not_allowlisted",
			wantDecision: decision("purge_cache", true, false, "read", "deny", "tool_not_allowlisted")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			up := newCallUpstream(t, reply{}, tt.status, `{"purged":["CANARY-7c2a"]}`)
			a := newPolicyAdapter(t, tt.policy, up.URL)
			status, body, ev := a.invoke(t, "purge_cache", tt.token, tt.args, "")
			want := strings.ReplaceAll(tt.wantBody, "{ID}", ev.RequestID)
			if status != tt.wantStatus || body != want {
				t.Errorf("got %d %s, want %d %s", status, body, tt.wantStatus, want)
			}
			if ev.Reason != tt.wantReason {
				t.Errorf("audit reason %s, want %s (detail %s)", ev.Reason, tt.wantReason, ev.Detail)
			}
			if diff := cmp.Diff(tt.wantDecision, ev.Decision); diff != "" {
				t.Errorf("audit decision (-want +got):\n%s", diff)
			}
			var wantReqs []request
			for range tt.wantRequests {
				wantReqs = append(wantReqs, request{Method: "POST", Path: "/cache/purge", Body: purgeArgs, Key: ev.RequestID})
			}
			if diff := cmp.Diff(wantReqs, up.requests()); diff != "" {
				t.Errorf("upstream requests (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPurgeCacheAsk checks that purge_cache follows the approval machinery
// when a policy marks it ask: nothing is sent before a human approves, then
// one POST with the approval id as Idempotency-Key.
func TestPurgeCacheAsk(t *testing.T) {
	up := newCallUpstream(t, reply{}, 200, `{}`)
	a := newPolicyAdapter(t, testpolicy.With(testpolicy.Allow("purge_cache"), purgeGrant, purgeAdmin, testpolicy.Ask("purge_cache")), up.URL)
	_, body, ev := a.invoke(t, "purge_cache", admin, purgeArgs, "")
	id := approvalID(t, body)
	if diff := cmp.Diff(decision("purge_cache", true, true, "admin", "ask", "ok"), ev.Decision); diff != "" {
		t.Errorf("first call's decision (-want +got):\n%s", diff)
	}
	if n := len(up.requests()); n != 0 {
		t.Fatalf("upstream saw %d requests before the approval, want 0", n)
	}
	a.post(t, "/v1/approvals/"+id, "", `{"approve":true}`)
	_, body, ev = a.invoke(t, "purge_cache", admin, purgeArgs, `,"approval_id":"`+id+`"`)
	if want := `{"tool":"purge_cache","request_id":"` + ev.RequestID + `","outcome":"success","data":{"status":"purged"}}`; body != want {
		t.Errorf("redeemed call: %s, want %s", body, want)
	}
	want := []request{{Method: "POST", Path: "/cache/purge", Body: purgeArgs, Key: id}}
	if diff := cmp.Diff(want, up.requests()); diff != "" {
		t.Errorf("upstream requests (-want +got):\n%s", diff)
	}
}
