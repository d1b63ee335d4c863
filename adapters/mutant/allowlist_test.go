package mutant

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/toolcert/toolcert/adapters/internal/pipeline"
	"github.com/toolcert/toolcert/internal/testpolicy"
	"github.com/toolcert/toolcert/protocol"
)

// purgeArgs are valid purge_cache arguments.
const purgeArgs = `{"service":"web-app"}`

// allowlistOutcome is what one purge_cache call gave: the HTTP status, the
// audit decision and the upstream requests ("POST /cache/purge").
type allowlistOutcome struct {
	status   int
	decision protocol.Decision
	sent     []string
}

// TestNoAllowlistPurgeCache checks that no-allowlist is caught by a tool
// the reference has but the built-in policy does not list: the reference
// denies purge_cache as an unknown tool (404, tool_not_allowlisted), while
// the mutant decides it as if it were listed.
func TestNoAllowlistPurgeCache(t *testing.T) {
	builtin := testpolicy.Builtin()
	withAdmin := testpolicy.With(testpolicy.Grant("purge_cache", "admin"), testpolicy.AddGrant("toolcert-agent", "admin"))
	tests := []struct {
		name    string
		policy  string
		mutant  string
		want    string // the decision's reason
		status  int
		sending bool // one POST /cache/purge
	}{
		{"reference, built-in policy: an unknown tool", builtin, "", protocol.ReasonToolNotAllowlisted, 404, false},
		{"mutant, built-in policy: reaches the grant check, which no grant names", builtin, "no-allowlist", protocol.ReasonGrantMissing, 200, false},
		{"reference, admin granted but not listed: still an unknown tool", withAdmin, "", protocol.ReasonToolNotAllowlisted, 404, false},
		{"mutant, admin granted but not listed: the purge reaches the upstream", withAdmin, "no-allowlist", protocol.ReasonOK, 200, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := purgeOnce(t, tt.mutant, tt.policy)
			if got.decision.Reason != tt.want || got.status != tt.status {
				t.Errorf("status %d, decision %+v; want %d, reason %s", got.status, got.decision, tt.status, tt.want)
			}
			if (tt.want == protocol.ReasonOK) != (got.decision.Decision == protocol.DecisionAllow) {
				t.Errorf("decision %s with reason %s", got.decision.Decision, got.decision.Reason)
			}
			var want []string
			if tt.sending {
				want = []string{"POST /cache/purge"}
			}
			if strings.Join(got.sent, ",") != strings.Join(want, ",") {
				t.Errorf("upstream requests %q, want %q", got.sent, want)
			}
		})
	}
}

// purgeOnce calls purge_cache as toolcert-agent on the reference (mutant
// "") or a mutant with policy and returns what happened.
func purgeOnce(tb testing.TB, mutant, policy string) allowlistOutcome {
	tb.Helper()
	var mu sync.Mutex
	var out allowlistOutcome
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		out.sent = append(out.sent, r.Method+" "+r.URL.Path)
		mu.Unlock()
	}))
	tb.Cleanup(up.Close)
	var audit bytes.Buffer
	a := newCallTarget(tb, mutant, policy, up.URL, pipeline.WithAuditWriter(&audit))
	req := httptest.NewRequest("POST", "/v1/tools/purge_cache/invoke", strings.NewReader(`{"arguments":`+purgeArgs+`}`))
	req.Header.Set("Authorization", "Bearer toolcert-agent")
	rec := httptest.NewRecorder()
	a.ServeHTTP(rec, req)
	out.status = rec.Code
	var ev struct {
		Decision *protocol.Decision `json:"decision"`
	}
	if err := json.Unmarshal(audit.Bytes(), &ev); err != nil || ev.Decision == nil {
		tb.Fatalf("audit %s: %v, want one event with a decision", audit.String(), err)
	}
	out.decision = *ev.Decision
	mu.Lock()
	defer mu.Unlock()
	out.sent = append([]string(nil), out.sent...)
	return out
}
