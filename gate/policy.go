package gate

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/toolcert/toolcert/protocol"
)

// NamePattern is the pattern of every tool and grant name a policy holds.
var NamePattern = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,64}$`)

// maxPolicyBytes bounds a policy file.
const maxPolicyBytes = 1 << 20

// ErrPolicy is returned (wrapped, with the reason) by [ParsePolicy] for a
// policy that is not valid.
var ErrPolicy = errors.New("invalid policy")

// Policy is the call side's authorization policy (docs/protocol.md, "The
// policy file"): which tools may be called at all, the sessions behind the
// bearer tokens, the grant each tool needs and the tools a human must
// approve. Build it with [ParsePolicy] or [LoadPolicy]; it is read-only
// afterwards and safe for concurrent use.
type Policy struct {
	// Allowlist holds the tools that may be called, matched byte for byte.
	Allowlist []string
	// Sessions maps a bearer token to its server-side session.
	Sessions map[string]Session
	// Grants maps a tool to the grant a session must hold to call it. A
	// tool without an entry is denied (grant_missing); an entry of "" means
	// the tool needs no grant.
	Grants map[string]string
	// Ask holds the tools whose calls a human must approve.
	Ask []string
	// ApprovalTTL is how long an approval lives after it is requested.
	ApprovalTTL time.Duration
}

// Session is what a bearer token stands for: the subject, the account it
// acts for and the grants it holds. The zero Session holds no grant.
type Session struct {
	Subject string   `json:"subject"`
	Account string   `json:"account"`
	Grants  []string `json:"grants"`
}

// policyFile is the JSON form of a Policy.
type policyFile struct {
	Allowlist   []string           `json:"allowlist"`
	Sessions    map[string]Session `json:"sessions"`
	Grants      map[string]string  `json:"grants"`
	Ask         []string           `json:"ask"`
	ApprovalTTL *string            `json:"approval_ttl"`
}

// ParsePolicy parses a policy document strictly: strict JSON (see
// [ParseJSON]: no duplicate names, no NaN), one object, member names
// matched exactly (case included), no unknown member at any level, tool
// and grant names matching [NamePattern], no empty token and approval_ttl
// a positive Go duration ("1s", "5m"; [protocol.DefaultApprovalTTL] when left out).
// Every fault wraps [ErrPolicy].
func ParsePolicy(b []byte) (*Policy, error) {
	doc, err := ParseJSON(b, DefaultLimits())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPolicy, err)
	}
	if _, ok := doc.(map[string]any); !ok {
		return nil, fmt.Errorf("%w: not a JSON object", ErrPolicy)
	}
	var f policyFile // member names match exactly, unknown ones are errors
	if err := jsonv2.Unmarshal(b, &f, jsonv2.RejectUnknownMembers(true)); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPolicy, err)
	}
	p := &Policy{Allowlist: f.Allowlist, Sessions: f.Sessions, Grants: f.Grants, Ask: f.Ask, ApprovalTTL: protocol.DefaultApprovalTTL}
	if f.ApprovalTTL != nil {
		ttl, err := time.ParseDuration(*f.ApprovalTTL)
		if err != nil || ttl <= 0 {
			return nil, fmt.Errorf("%w: approval_ttl %.40q is not a positive duration", ErrPolicy, *f.ApprovalTTL)
		}
		p.ApprovalTTL = ttl
	}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPolicy, err)
	}
	return p, nil
}

// LoadPolicy reads (at most 1 MiB) and parses the policy file at path.
func LoadPolicy(path string) (*Policy, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load policy: %w", err)
	}
	defer f.Close()
	b, err := ReadLimited(f, maxPolicyBytes)
	if err != nil {
		return nil, fmt.Errorf("load policy %s: %w", path, err)
	}
	p, err := ParsePolicy(b)
	if err != nil {
		return nil, fmt.Errorf("load policy %s: %w", path, err)
	}
	return p, nil
}

// check validates the names the policy holds.
func (p *Policy) check() error {
	for _, list := range []struct {
		what  string
		names []string
	}{{"allowlist", p.Allowlist}, {"ask", p.Ask}} {
		for _, n := range list.names {
			if !NamePattern.MatchString(n) {
				return fmt.Errorf("%s: tool name %.80q does not match %s", list.what, n, NamePattern)
			}
		}
	}
	for tool, grant := range p.Grants {
		if !NamePattern.MatchString(tool) || (grant != "" && !NamePattern.MatchString(grant)) {
			return fmt.Errorf("grants: %.80q: %.80q: names must match %s", tool, grant, NamePattern)
		}
	}
	for token, s := range p.Sessions {
		if token == "" {
			return errors.New("sessions: empty token")
		}
		for _, g := range s.Grants {
			if !NamePattern.MatchString(g) {
				return fmt.Errorf("sessions: grant %.80q does not match %s", g, NamePattern)
			}
		}
	}
	return nil
}

// Session returns the session of token, or the zero Session (no grant) for
// an empty or unknown token.
func (p *Policy) Session(token string) Session {
	if token == "" {
		return Session{}
	}
	return p.Sessions[token]
}

// Allowed reports whether tool is on the allowlist, compared byte for byte:
// "Send_Email", "send_email " and a Cyrillic "е" are not "send_email".
func (p *Policy) Allowed(tool string) bool {
	return slices.Contains(p.Allowlist, tool)
}

// NeedsApproval reports whether the policy marks tool ask: its calls need a
// human's approval.
func (p *Policy) NeedsApproval(tool string) bool {
	return slices.Contains(p.Ask, tool)
}

// Holds reports whether s holds the grant tool needs, and that grant ("" for
// a tool that needs none). A tool the policy's grants do not name is never
// held.
func (p *Policy) Holds(tool string, s Session) (grant string, ok bool) {
	need, known := p.Grants[tool]
	switch {
	case !known:
		return "", false
	case need == "":
		return "", true
	}
	return need, slices.Contains(s.Grants, need)
}
