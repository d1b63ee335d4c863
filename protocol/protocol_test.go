package protocol_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/protocol"
)

func TestStatusReason(t *testing.T) {
	tests := []struct {
		status int
		want   string
		why    string
	}{
		{200, "", "200 goes on to the parse gate"},
		{404, protocol.ReasonStatus404, "404 has its own reason"},
		{429, protocol.ReasonStatus429, "429 has its own reason"},
		{400, protocol.ReasonStatus4xx, "another 4xx"},
		{499, protocol.ReasonStatus4xx, "the last 4xx"},
		{500, protocol.ReasonStatus5xx, "the first 5xx"},
		{599, protocol.ReasonStatus5xx, "the last 5xx"},
		{201, protocol.ReasonUnexpectedStatus, "a 2xx other than 200"},
		{302, protocol.ReasonUnexpectedStatus, "a redirect is not followed"},
		{600, protocol.ReasonUnexpectedStatus, "beyond 5xx"},
		{100, protocol.ReasonUnexpectedStatus, "informational"},
	}
	for _, tt := range tests {
		if got := protocol.StatusReason(tt.status); got != tt.want {
			t.Errorf("StatusReason(%d) = %q, want %q (%s)", tt.status, got, tt.want, tt.why)
		}
	}
}

func TestCodeFor(t *testing.T) {
	type code struct {
		Code      protocol.Code
		Retryable bool
	}
	tests := []struct {
		gate   protocol.Gate
		reason string
		want   code
	}{
		{protocol.GateTransport, protocol.ReasonStatus404, code{protocol.CodeNotFound, false}},
		{protocol.GateTransport, protocol.ReasonStatus429, code{protocol.CodeUpstreamUnavailable, true}},
		{protocol.GateTransport, protocol.ReasonStatus5xx, code{protocol.CodeUpstreamUnavailable, true}},
		{protocol.GateTransport, protocol.ReasonConnection, code{protocol.CodeUpstreamUnavailable, true}},
		{protocol.GateTransport, protocol.ReasonTimeout, code{protocol.CodeUpstreamUnavailable, true}},
		{protocol.GateTransport, protocol.ReasonDeadline, code{protocol.CodeUpstreamUnavailable, true}},
		{protocol.GateTransport, protocol.ReasonStatus4xx, code{protocol.CodeUpstreamUnavailable, false}},
		{protocol.GateTransport, protocol.ReasonUnexpectedStatus, code{protocol.CodeInvalidResponse, false}},
		{protocol.GateTransport, protocol.ReasonByteLimit, code{protocol.CodeInvalidResponse, false}},
		{protocol.GateParse, protocol.ReasonSyntax, code{protocol.CodeInvalidResponse, false}},
		{protocol.GateSchema, protocol.ReasonUnsupportedVersion, code{protocol.CodeInvalidResponse, false}},
		{protocol.GateSemantic, protocol.ReasonStale, code{protocol.CodeInvalidResponse, false}},
		{protocol.GateAuthz, protocol.ReasonGrantMissing, code{protocol.CodeDenied, false}},
		{protocol.GateAuthz, protocol.ReasonArgumentsInvalid, code{protocol.CodeDenied, false}},
	}
	for _, tt := range tests {
		c, r := protocol.CodeFor(tt.gate, tt.reason)
		if diff := cmp.Diff(tt.want, code{c, r}); diff != "" {
			t.Errorf("CodeFor(%s, %s) (-want +got):\n%s", tt.gate, tt.reason, diff)
		}
	}
}

// TestEveryReasonHasOneGate: the reasons-by-gate table names each reason
// under exactly one gate.
func TestEveryReasonHasOneGate(t *testing.T) {
	seen := map[string]protocol.Gate{}
	for _, g := range protocol.Gates() {
		if len(protocol.Reasons(g)) == 0 {
			t.Errorf("gate %s has no reason", g)
		}
		for _, r := range protocol.Reasons(g) {
			if other, ok := seen[r]; ok {
				t.Errorf("reason %s is listed under %s and %s", r, other, g)
			}
			seen[r] = g
			if !protocol.Records(g, r) {
				t.Errorf("Records(%s, %s) = false", g, r)
			}
		}
	}
	if protocol.Records(protocol.GateParse, protocol.ReasonStale) {
		t.Error("Records(parse, stale) = true")
	}
}

// TestStatusReasonsAreTransportReasons: every status reason is recorded
// at the transport gate.
func TestStatusReasonsAreTransportReasons(t *testing.T) {
	for status := 100; status < 700; status++ {
		if r := protocol.StatusReason(status); r != "" && !protocol.Records(protocol.GateTransport, r) {
			t.Errorf("status %d gives %s, not a transport reason", status, r)
		}
	}
}

// schemaDoc parses one of the protocol's schemas.
func schemaDoc(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["$schema"] != protocol.DraftURI {
		t.Errorf("$schema %v, want %s", doc["$schema"], protocol.DraftURI)
	}
	return doc
}

// at walks doc by keys and indexes.
func at(t *testing.T, doc any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			doc = doc.(map[string]any)[k]
		case int:
			doc = doc.([]any)[k]
		}
	}
	return doc
}

func strs(v any) []string {
	var out []string
	for _, s := range v.([]any) {
		out = append(out, s.(string))
	}
	return out
}

// TestSchemasFollowTheTables: the JSON Schemas repeat the Go tables (the
// codes, the request_id pattern, the reasons by gate); this keeps them
// equal.
func TestSchemasFollowTheTables(t *testing.T) {
	env := schemaDoc(t, protocol.EnvelopeSchema())
	var codes []string
	for _, c := range protocol.Codes() {
		codes = append(codes, string(c))
	}
	if diff := cmp.Diff(codes, strs(at(t, env, "oneOf", 1, "properties", "error", "properties", "code", "enum"))); diff != "" {
		t.Errorf("envelope codes (-Codes +schema):\n%s", diff)
	}
	if got := at(t, env, "$defs", "requestId", "pattern"); got != protocol.RequestIDPattern {
		t.Errorf("envelope request_id pattern %v, want %s", got, protocol.RequestIDPattern)
	}
	audit := schemaDoc(t, protocol.AuditEventSchema())
	if got := at(t, audit, "properties", "request_id", "pattern"); got != protocol.RequestIDPattern {
		t.Errorf("audit request_id pattern %v, want %s", got, protocol.RequestIDPattern)
	}
	var gates []string
	for _, g := range protocol.Gates() {
		gates = append(gates, string(g))
	}
	if diff := cmp.Diff(gates, strs(at(t, audit, "properties", "gate", "enum"))); diff != "" {
		t.Errorf("audit gates (-Gates +schema):\n%s", diff)
	}
	for i, g := range protocol.Gates() {
		rule := at(t, audit, "allOf", i)
		if at(t, rule, "if", "properties", "gate", "const") != string(g) {
			t.Fatalf("audit allOf/%d is not the rule of gate %s", i, g)
		}
		reason := at(t, rule, "then", "properties", "reason").(map[string]any)
		got := []string{}
		if c, ok := reason["const"].(string); ok {
			got = append(got, c)
		} else {
			got = strs(reason["enum"])
		}
		if diff := cmp.Diff(protocol.Reasons(g), got); diff != "" {
			t.Errorf("audit reasons of %s (-Reasons +schema):\n%s", g, diff)
		}
	}
	dec := schemaDoc(t, protocol.DecisionSchema())
	wantReasons := []string{protocol.ReasonOK, protocol.ReasonGrantMissing, protocol.ReasonToolNotAllowlisted, protocol.ReasonArgumentsInvalid}
	if diff := cmp.Diff(wantReasons, strs(at(t, dec, "properties", "reason", "enum"))); diff != "" {
		t.Errorf("decision reasons (-want +schema):\n%s", diff)
	}
	for _, r := range wantReasons[1:] {
		if !protocol.Records(protocol.GateAuthz, r) {
			t.Errorf("decision reason %s is not an authz reason", r)
		}
	}
	decisions := strs(at(t, dec, "properties", "decision", "enum"))
	if !slices.Equal(decisions, []string{protocol.DecisionAllow, protocol.DecisionDeny, protocol.DecisionAsk}) {
		t.Errorf("decisions %v", decisions)
	}
}

func TestValidRequestID(t *testing.T) {
	for id, want := range map[string]bool{
		"req.J7q94MkP": true,
		"req.1234567":  true,
		"req.123":      false, // 7 characters after the first are required
		".req12345678": false,
		"req 12345678": false,
		"req-12345678": false,
		"abcdefgh":     true,
	} {
		if got := protocol.ValidRequestID(id); got != want {
			t.Errorf("ValidRequestID(%q) = %v, want %v", id, got, want)
		}
	}
}

func TestPaths(t *testing.T) {
	if got := protocol.InvokePath("a/b"); got != "/v1/tools/a%2Fb/invoke" {
		t.Errorf("InvokePath = %s", got)
	}
	if got := protocol.ApprovalPath("apr.1"); got != "/v1/approvals/apr.1" {
		t.Errorf("ApprovalPath = %s", got)
	}
}

func TestVariablesShareThePrefix(t *testing.T) {
	for _, v := range []string{protocol.VarUpstreamURL, protocol.VarListen, protocol.VarAuditFile, protocol.VarPolicyFile,
		protocol.VarMaxBytes, protocol.VarMaxDepth, protocol.VarMaxAttempts, protocol.VarDeadline,
		protocol.VarReadTimeout, protocol.VarFreshness, protocol.VarFutureSkew} {
		if len(v) <= len(protocol.VarPrefix) || v[:len(protocol.VarPrefix)] != protocol.VarPrefix {
			t.Errorf("%s does not start with %s", v, protocol.VarPrefix)
		}
	}
}
