package testpolicy

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/gate"
)

func TestWith(t *testing.T) {
	p, err := gate.ParsePolicy([]byte(With(
		Allow("purge_cache"), Grant("purge_cache", "admin"),
		Session("admin-token", "ops", "acct-100", "admin"), AddGrant("toolcert-agent", "admin"),
		Disallow("request_refund"), Ask("purge_cache"),
	)))
	if err != nil {
		t.Fatal(err)
	}
	if !p.Allowed("purge_cache") || p.Allowed("request_refund") {
		t.Errorf("allowlist %q: want purge_cache in, request_refund out", p.Allowlist)
	}
	if diff := cmp.Diff(gate.Session{Subject: "ops", Account: "acct-100", Grants: []string{"admin"}}, p.Session("admin-token")); diff != "" {
		t.Errorf("admin-token (-want +got):\n%s", diff)
	}
	if g, ok := p.Holds("purge_cache", p.Session("toolcert-agent")); !ok || g != "admin" {
		t.Errorf("toolcert-agent holds %q (%v), want admin", g, ok)
	}
	if !p.NeedsApproval("purge_cache") || !p.NeedsApproval("send_email") {
		t.Errorf("ask %q: want purge_cache added to send_email", p.Ask)
	}
	if _, err := gate.ParsePolicy([]byte(Builtin())); err != nil {
		t.Errorf("the built-in policy: %v", err)
	}
}
