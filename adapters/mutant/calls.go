package mutant

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toolcert/toolcert/adapters/internal/pipeline"
	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// callMutants returns the call-side mutants by name.
func callMutants() map[string]mutant {
	one := func(o pipeline.Option) func(pipeline.Config) []pipeline.Option {
		return func(pipeline.Config) []pipeline.Option { return []pipeline.Option{o} }
	}
	return map[string]mutant{
		"no-allowlist": {
			"the allowlist is not checked: a tool the adapter has but the policy does not list is decided on its arguments and grant alone",
			one(pipeline.WithDecide(allowlistIgnored)),
		},
		"case-insensitive-tool": {
			"tool names are matched without case and surrounding space (Send_Email, \" send_email\")",
			one(pipeline.WithToolLookup(foldTool)),
		},
		"grant-not-checked": {
			"the application rule never denies for a missing grant: any session may call any allowlisted tool",
			one(pipeline.WithDecide(grantIgnored)),
		},
		"ask-executes": {
			"a call the policy marks ask is executed at once, without waiting for a human",
			one(pipeline.WithDecide(askExecutes)),
		},
		"approval-reusable": {
			"an approval is not marked used: one human approval lets the same call through again and again",
			one(pipeline.WithApprovalStore(func(ttl time.Duration, now func() time.Time) pipeline.ApprovalStore {
				return &reusable{newRecorded(ttl, now)}
			})),
		},
		"arguments-not-rebound": {
			"an approval is redeemed for any arguments: the human approved one email, the agent sends another",
			one(pipeline.WithApprovalStore(func(ttl time.Duration, now func() time.Time) pipeline.ApprovalStore {
				return &rebinding{newRecorded(ttl, now), anyArguments}
			})),
		},
		"approval-any-session": {
			"an approval is redeemed from any session: another agent that learns the approval id spends it",
			one(pipeline.WithApprovalStore(func(ttl time.Duration, now func() time.Time) pipeline.ApprovalStore {
				return &rebinding{newRecorded(ttl, now), anySession}
			})),
		},
		"model-account-trusted": {
			"request_refund accepts an account_id argument and checks the order's owner against it, not the session's account",
			func(pipeline.Config) []pipeline.Option {
				return []pipeline.Option{pipeline.WithArgumentsSchemaTransform(acceptAccountID), pipeline.WithAccountFrom(modelAccount)}
			},
		},
		"partial-stream-acted-on": {
			"an invocation body that ended early is repaired by closing what is open, and acted on",
			one(pipeline.WithBodyRepair(closeOpen)),
		},
	}
}

// allowlistIgnored decides as if every tool were on the allowlist.
func allowlistIgnored(p *gate.Policy, tool string, valid bool, s gate.Session) protocol.Decision {
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
func grantIgnored(p *gate.Policy, tool string, valid bool, s gate.Session) protocol.Decision {
	d := p.Decide(tool, valid, s)
	if d.Decision == protocol.DecisionDeny && d.Reason == protocol.ReasonGrantMissing {
		d.Decision, d.Reason = protocol.DecisionAllow, protocol.ReasonOK
		if p.NeedsApproval(tool) {
			d.Decision = protocol.DecisionAsk
		}
	}
	return d
}

// askExecutes decides, then turns ask into allow.
func askExecutes(p *gate.Policy, tool string, valid bool, s gate.Session) protocol.Decision {
	d := p.Decide(tool, valid, s)
	if d.Decision == protocol.DecisionAsk {
		d.Decision = protocol.DecisionAllow
	}
	return d
}

// recorded is an approval store that remembers each approval's binding,
// for the mutants that redeem against it differently.
type recorded struct {
	inner    *gate.Approvals
	mu       sync.Mutex
	bindings map[string]gate.Binding // approval id -> binding
}

// newRecorded returns an empty recorded store over gate.NewApprovals.
func newRecorded(ttl time.Duration, now func() time.Time) recorded {
	return recorded{inner: gate.NewApprovals(ttl, now), bindings: map[string]gate.Binding{}}
}

// Request records the approval's binding, then asks the inner store.
func (r *recorded) Request(b gate.Binding, requestID string) string {
	id := r.inner.Request(b, requestID)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.bindings[id] = b
	return id
}

// Decide asks the inner store.
func (r *recorded) Decide(id string, approve bool) (string, error) {
	return r.inner.Decide(id, approve)
}

// binding returns the binding approval id was requested with.
func (r *recorded) binding(id string) (gate.Binding, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	b, ok := r.bindings[id]
	return b, ok
}

// reusable is an approval store whose approvals, once redeemed, keep
// letting the same call through.
type reusable struct{ recorded }

var _ pipeline.ApprovalStore = (*reusable)(nil)

// Redeem asks the inner store, and forgives ErrApprovalUsed for the same
// call.
func (r *reusable) Redeem(id string, b gate.Binding) error {
	err := r.inner.Redeem(id, b)
	if requested, ok := r.binding(id); ok && errors.Is(err, gate.ErrApprovalUsed) && requested == b {
		return nil
	}
	return err
}

// rebinding is an approval store that redeems an approval with the binding
// it was requested for, changed by keep: keep returns what of the call's
// own binding still counts.
type rebinding struct {
	recorded
	keep func(requested, call gate.Binding) gate.Binding
}

var _ pipeline.ApprovalStore = (*rebinding)(nil)

// Redeem checks only what keep keeps of the call's binding.
func (u *rebinding) Redeem(id string, b gate.Binding) error {
	if requested, ok := u.binding(id); ok {
		b = u.keep(requested, b)
	}
	return u.inner.Redeem(id, b)
}

// anyArguments keeps the call's tool and session, not its arguments.
func anyArguments(requested, call gate.Binding) gate.Binding {
	call.ArgsHash = requested.ArgsHash
	return call
}

// anySession keeps the call's tool and arguments, not its session.
func anySession(requested, call gate.Binding) gate.Binding {
	call.Subject = requested.Subject
	return call
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
