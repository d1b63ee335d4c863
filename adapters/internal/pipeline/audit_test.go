package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/targets"
)

func TestAuditFileAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	if err := os.WriteFile(path, []byte("{\"earlier\":true}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	up := newUpstream(t, json200(reviewOK))
	a, closer, err := Build(targets.Env{UpstreamURL: up.URL, AuditFile: path})
	if err != nil {
		t.Fatal(err)
	}
	call(t, a, "review_status", `{"arguments":{"change_id":"CR-1042"}}`)
	call(t, a, "no_such_tool", `{"arguments":{}}`)
	if err := closer.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], `"reason":"ok"`) || !strings.Contains(lines[2], `"reason":"tool_not_allowlisted"`) {
		t.Errorf("audit file:\n%s\nwant the earlier line, then ok, then tool_not_allowlisted", b)
	}
}

// TestAuditEventsFitTheProtocol: every event the reference writes, accepted
// or refused, satisfies the protocol's audit-event schema, and its decision
// record the protocol's decision schema.
func TestAuditEventsFitTheProtocol(t *testing.T) {
	eventSchema, err := gate.Compile("audit-event.json", protocol.AuditEventSchema())
	if err != nil {
		t.Fatal(err)
	}
	decisionSchema, err := gate.Compile("decision.json", protocol.DecisionSchema())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	up := newUpstream(t, json200(`{"change_id": "CR-1042"}`))
	a, closer, err := Build(targets.Env{UpstreamURL: up.URL, AuditFile: path})
	if err != nil {
		t.Fatal(err)
	}
	call(t, a, "review_status", `{"arguments":{"change_id":"CR-1042"}}`) // schema_violation
	call(t, a, "review_status", `{"arguments":{"change_id":"nope"}}`)    // arguments_invalid
	call(t, a, "no_such_tool", `{"arguments":{}}`)                       // tool_not_allowlisted
	if err := closer.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d audit lines, want 3:\n%s", len(lines), b)
	}
	for _, line := range lines {
		ev, err := gate.ParseJSON([]byte(line), gate.Limits{})
		if err != nil {
			t.Fatalf("audit line %s: %v", line, err)
		}
		if err := eventSchema.Validate(ev); err != nil {
			t.Errorf("audit line %s breaks the protocol's schema: %v", line, err)
		}
		if d, ok := ev.(map[string]any)["decision"]; ok {
			if err := decisionSchema.Validate(d); err != nil {
				t.Errorf("decision of %s breaks the protocol's schema: %v", line, err)
			}
		}
	}
}
