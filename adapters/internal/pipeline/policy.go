package pipeline

import (
	"net/http"
	"strings"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// loadPolicy picks the policy: Config.Policy, the policy file, or the
// default policy.
func (a *Adapter) loadPolicy() error {
	switch {
	case a.cfg.Policy != nil:
		a.policy = a.cfg.Policy
	case a.cfg.PolicyFile != "":
		p, err := gate.LoadPolicy(a.cfg.PolicyFile)
		if err != nil {
			return err
		}
		a.policy = p
	default:
		a.policy = defaultPolicy()
	}
	return nil
}

// defaultPolicy is the policy without a policy file: the read tools are
// allowed to any caller, needing no grant; nothing else is on the
// allowlist.
func defaultPolicy() *gate.Policy {
	p := &gate.Policy{Grants: map[string]string{}, ApprovalTTL: protocol.DefaultApprovalTTL}
	for _, t := range readTools() {
		p.Allowlist = append(p.Allowlist, t.name)
		p.Grants[t.name] = ""
	}
	return p
}

// bearer returns the token of the request's only Authorization header when
// it is "Bearer <token>" (the scheme in any case), or "": a missing,
// repeated or malformed header is no session.
func bearer(h http.Header) string {
	vals := h.Values("Authorization")
	if len(vals) != 1 {
		return ""
	}
	scheme, token, ok := strings.Cut(vals[0], " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" || strings.ContainsAny(token, " \t") {
		return ""
	}
	return token
}
