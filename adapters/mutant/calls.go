package mutant

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/gate"
)

// callMutants returns the call-side mutants by name.
func callMutants() map[string]mutant {
	one := func(o reference.Option) func(reference.Config) []reference.Option {
		return func(reference.Config) []reference.Option { return []reference.Option{o} }
	}
	return map[string]mutant{
		"no-allowlist": {
			"the allowlist is not checked: a tool the adapter has but the policy does not list is decided on its arguments and grant alone",
			one(reference.WithDecide(allowlistIgnored)),
		},
		"case-insensitive-tool": {
			"tool names are matched without case and surrounding space (Send_Email, \" send_email\")",
			one(reference.WithToolLookup(foldTool)),
		},
		"grant-not-checked": {
			"the application rule never denies for a missing grant: any session may call any allowlisted tool",
			one(reference.WithDecide(grantIgnored)),
		},
		"ask-executes": {
			"a call the policy marks ask is executed at once, without waiting for a human",
			one(reference.WithDecide(askExecutes)),
		},
		"approval-reusable": {
			"an approval is not marked used: one human approval lets the same call through again and again",
			one(reference.WithApprovalStore(func(ttl time.Duration, now func() time.Time) reference.ApprovalStore {
				return &reusable{inner: gate.NewApprovals(ttl, now), hashes: map[string]string{}}
			})),
		},
		"arguments-not-rebound": {
			"an approval is redeemed for any arguments: the human approved one email, the agent sends another",
			one(reference.WithApprovalStore(func(ttl time.Duration, now func() time.Time) reference.ApprovalStore {
				return &unbound{inner: gate.NewApprovals(ttl, now), hashes: map[string]string{}}
			})),
		},
		"model-account-trusted": {
			"request_refund accepts an account_id argument and checks the order's owner against it, not the session's account",
			func(reference.Config) []reference.Option {
				return []reference.Option{reference.WithArgumentsSchemaTransform(acceptAccountID), reference.WithAccountFrom(modelAccount)}
			},
		},
		"partial-stream-acted-on": {
			"an invocation body that ended early is repaired by closing what is open, and acted on",
			one(reference.WithBodyRepair(closeOpen)),
		},
	}
}

// allowlistIgnored decides as if every tool were on the allowlist.
func allowlistIgnored(p *gate.Policy, tool string, valid bool, s gate.Session) gate.Decision {
	widened := *p
	widened.Allowlist = append(slices.Clone(p.Allowlist), tool)
	return widened.Decide(tool, valid, s)
}

// foldTool finds requested among tools without case, after trimming space.
func foldTool(requested string, tools []string) (string, bool) {
	requested = strings.TrimSpace(requested)
	for _, t := range tools {
		if strings.EqualFold(t, requested) {
			return t, true
		}
	}
	return "", false
}

// grantIgnored decides, then takes back a deny for a missing grant.
func grantIgnored(p *gate.Policy, tool string, valid bool, s gate.Session) gate.Decision {
	d := p.Decide(tool, valid, s)
	if d.Decision == gate.DecisionDeny && d.Reason == gate.ReasonGrantMissing {
		d.Decision, d.Reason = gate.DecisionAllow, gate.ReasonOK
		if p.NeedsApproval(tool) {
			d.Decision = gate.DecisionAsk
		}
	}
	return d
}

// askExecutes decides, then turns ask into allow.
func askExecutes(p *gate.Policy, tool string, valid bool, s gate.Session) gate.Decision {
	d := p.Decide(tool, valid, s)
	if d.Decision == gate.DecisionAsk {
		d.Decision = gate.DecisionAllow
	}
	return d
}

// reusable is an approval store whose approvals, once redeemed, keep
// letting the same call through.
type reusable struct {
	inner  *gate.Approvals
	mu     sync.Mutex
	hashes map[string]string // approval id -> tool and argument hash
}

var _ reference.ApprovalStore = (*reusable)(nil)

// Request records the approval's binding, then asks the inner store.
func (r *reusable) Request(tool, argsHash, requestID string) string {
	id := r.inner.Request(tool, argsHash, requestID)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hashes[id] = tool + "\x00" + argsHash
	return id
}

// Decide asks the inner store.
func (r *reusable) Decide(id string, approve bool) (string, error) {
	return r.inner.Decide(id, approve)
}

// Redeem asks the inner store, and forgives ErrApprovalUsed for the same
// call.
func (r *reusable) Redeem(id, tool, argsHash string) error {
	err := r.inner.Redeem(id, tool, argsHash)
	r.mu.Lock()
	defer r.mu.Unlock()
	if errors.Is(err, gate.ErrApprovalUsed) && r.hashes[id] == tool+"\x00"+argsHash {
		return nil
	}
	return err
}

// unbound is an approval store that redeems an approval with the hash it
// was requested for, whatever the arguments of the call.
type unbound struct {
	inner  *gate.Approvals
	mu     sync.Mutex
	hashes map[string]string // approval id -> argument hash
}

var _ reference.ApprovalStore = (*unbound)(nil)

// Request records the approval's hash, then asks the inner store.
func (u *unbound) Request(tool, argsHash, requestID string) string {
	id := u.inner.Request(tool, argsHash, requestID)
	u.mu.Lock()
	defer u.mu.Unlock()
	u.hashes[id] = argsHash
	return id
}

// Decide asks the inner store.
func (u *unbound) Decide(id string, approve bool) (string, error) { return u.inner.Decide(id, approve) }

// Redeem ignores argsHash.
func (u *unbound) Redeem(id, tool, _ string) error {
	u.mu.Lock()
	h := u.hashes[id]
	u.mu.Unlock()
	return u.inner.Redeem(id, tool, h)
}

// acceptAccountID adds an optional account_id to request_refund's argument
// schema; other schemas, and one it cannot decode, are unchanged.
func acceptAccountID(tool string, schema []byte) []byte {
	if tool != "request_refund" {
		return schema
	}
	var doc map[string]any
	if err := json.Unmarshal(schema, &doc); err != nil {
		return schema
	}
	props, ok := doc["properties"].(map[string]any)
	if !ok {
		return schema
	}
	props["account_id"] = map[string]any{"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"}
	out, err := json.Marshal(doc)
	if err != nil {
		return schema
	}
	return out
}

// modelAccount trusts the model's account_id over the session's account.
func modelAccount(args map[string]any, s gate.Session) string {
	if a, ok := args["account_id"].(string); ok {
		return a
	}
	return s.Account
}
