package gate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/protocol"
)

// docPolicy is the policy of docs/protocol.md.
const docPolicy = `{
  "allowlist": ["review_status", "run_status", "deploy_status", "host_uptime", "send_email", "request_refund"],
  "sessions": {
    "toolcert-agent": {"subject": "agent-1", "account": "acct-100", "grants": ["read", "send", "refund"]},
    "reader-token":   {"subject": "reader",  "account": "acct-100", "grants": ["read_inbox"]},
    "other-token":    {"subject": "mallory", "account": "acct-999", "grants": ["read", "send", "refund"]}
  },
  "grants": {"review_status": "read", "run_status": "read", "deploy_status": "read", "host_uptime": "read",
             "send_email": "send", "request_refund": "refund"},
  "ask": ["send_email"],
  "approval_ttl": "1s"
}`

// mustPolicy parses src or fails the test.
func mustPolicy(tb testing.TB, src string) *Policy {
	tb.Helper()
	p, err := ParsePolicy([]byte(src))
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func TestParsePolicy(t *testing.T) {
	p := mustPolicy(t, docPolicy)
	want := &Policy{
		Allowlist: []string{"review_status", "run_status", "deploy_status", "host_uptime", "send_email", "request_refund"},
		Sessions: map[string]Session{
			"toolcert-agent": {Subject: "agent-1", Account: "acct-100", Grants: []string{"read", "send", "refund"}},
			"reader-token":   {Subject: "reader", Account: "acct-100", Grants: []string{"read_inbox"}},
			"other-token":    {Subject: "mallory", Account: "acct-999", Grants: []string{"read", "send", "refund"}},
		},
		Grants: map[string]string{"review_status": "read", "run_status": "read", "deploy_status": "read", "host_uptime": "read",
			"send_email": "send", "request_refund": "refund"},
		Ask:         []string{"send_email"},
		ApprovalTTL: time.Second,
	}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("ParsePolicy (-want +got):\n%s", diff)
	}
	if got := mustPolicy(t, `{}`).ApprovalTTL; got != protocol.DefaultApprovalTTL {
		t.Errorf("default approval_ttl = %s, want %s", got, protocol.DefaultApprovalTTL)
	}
}

func TestParsePolicyRejects(t *testing.T) {
	tests := []struct {
		name, src string
	}{
		{"unknown top-level member", `{"allowlist":[],"admin":true}`},
		{"unknown session member", `{"sessions":{"t":{"subject":"s","account":"a","grants":[],"approved":true}}}`},
		{"member name in another case", `{"Allowlist":["send_email"]}`},
		{"duplicate member", `{"allowlist":["a"],"allowlist":["b"]}`},
		{"not an object", `["send_email"]`},
		{"not JSON", `allowlist: [send_email]`},
		{"trailing data", `{} {}`},
		{"ttl not a duration", `{"approval_ttl":"soon"}`},
		{"ttl a number", `{"approval_ttl":1}`},
		{"ttl zero", `{"approval_ttl":"0s"}`},
		{"ttl negative", `{"approval_ttl":"-1s"}`},
		{"allowlist a string", `{"allowlist":"send_email"}`},
		{"tool name with a space", `{"allowlist":["send_email "]}`},
		{"empty tool name", `{"ask":[""]}`},
		{"grant with a newline", `{"grants":{"send_email":"send\n"}}`},
		{"session grant with a space", `{"sessions":{"t":{"grants":["read all"]}}}`},
		{"empty token", `{"sessions":{"":{"grants":["read"]}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParsePolicy([]byte(tt.src))
			if !errors.Is(err, ErrPolicy) {
				t.Errorf("ParsePolicy(%s) err = %v, want ErrPolicy", tt.src, err)
			}
		})
	}
}

func TestLoadPolicy(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "policy.json")
	if err := os.WriteFile(path, []byte(docPolicy), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadPolicy(path); err != nil {
		t.Errorf("LoadPolicy: %v", err)
	}
	if _, err := LoadPolicy(filepath.Join(dir, "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("LoadPolicy(missing) err = %v, want ErrNotExist", err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"allowlist":[`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadPolicy(bad); !errors.Is(err, ErrPolicy) || !strings.Contains(err.Error(), "bad.json") {
		t.Errorf("LoadPolicy(bad) err = %v, want ErrPolicy naming the file", err)
	}
}

func TestPolicyAllowed(t *testing.T) {
	p := mustPolicy(t, docPolicy)
	tests := []struct {
		tool string
		want bool
	}{
		{"send_email", true},
		{"Send_Email", false},
		{"SEND_EMAIL", false},
		{"send_email ", false},
		{" send_email", false},
		{"send_\u0435mail", false}, // Cyrillic е
		{"send_email\x00", false},
		{"send-email", false},
		{"", false},
		{"delete_repo", false},
	}
	for _, tt := range tests {
		if got := p.Allowed(tt.tool); got != tt.want {
			t.Errorf("Allowed(%q) = %t, want %t", tt.tool, got, tt.want)
		}
	}
}

func TestPolicySession(t *testing.T) {
	p := mustPolicy(t, docPolicy)
	tests := []struct {
		token string
		want  Session
	}{
		{"toolcert-agent", Session{Subject: "agent-1", Account: "acct-100", Grants: []string{"read", "send", "refund"}}},
		{"reader-token", Session{Subject: "reader", Account: "acct-100", Grants: []string{"read_inbox"}}},
		{"", Session{}},
		{"unknown", Session{}},
		{"Toolcert-Agent", Session{}},
		{"toolcert-agent ", Session{}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, p.Session(tt.token)); diff != "" {
			t.Errorf("Session(%q) (-want +got):\n%s", tt.token, diff)
		}
	}
}

func TestPolicyNeedsApprovalAndHolds(t *testing.T) {
	p := mustPolicy(t, `{"grants":{"send_email":"send","ping":""},"ask":["send_email"]}`)
	if !p.NeedsApproval("send_email") || p.NeedsApproval("Send_Email") || p.NeedsApproval("ping") {
		t.Error("NeedsApproval does not match the ask list exactly")
	}
	s := Session{Grants: []string{"send"}}
	tests := []struct {
		tool      string
		s         Session
		wantGrant string
		wantOK    bool
	}{
		{"send_email", s, "send", true},
		{"send_email", Session{Grants: []string{"read"}}, "send", false},
		{"send_email", Session{}, "send", false},
		{"ping", Session{}, "", true},
		{"unlisted", s, "", false},
	}
	for _, tt := range tests {
		grant, ok := p.Holds(tt.tool, tt.s)
		if grant != tt.wantGrant || ok != tt.wantOK {
			t.Errorf("Holds(%q, %v) = %q, %t; want %q, %t", tt.tool, tt.s.Grants, grant, ok, tt.wantGrant, tt.wantOK)
		}
	}
}
