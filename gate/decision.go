package gate

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/toolcert/toolcert/protocol"
)

// Decide decides a call of tool by session s whose arguments were (or were
// not) valid: it proposes "allow" and lets [Apply] turn it into what the
// policy permits.
func (p *Policy) Decide(tool string, argumentsValid bool, s Session) protocol.Decision {
	grant, _ := p.Holds(tool, s)
	d := protocol.Decision{
		Tool: tool, ArgumentsValid: argumentsValid, ToolAllowed: p.Allowed(tool),
		Grant: grant, Decision: protocol.DecisionAllow, Reason: protocol.ReasonOK,
	}
	return Apply(d, p, s)
}

// Apply is the application rule (A4) alone: whoever proposed d, an "allow"
// (or "ask") stands only when d says the arguments are valid and the tool
// allowed, the policy's allowlist agrees, and s holds the grant the policy
// names for the tool; otherwise it becomes "deny" with the reason of the
// first failed check (allowlist, arguments, grant). One that stands becomes
// "ask" when the policy marks the tool ask (an "ask" stays one). A "deny"
// stays a deny; any other decision value is treated as a proposal to
// allow. Apply never trusts d.Grant: the grant is looked up in s.
func Apply(d protocol.Decision, p *Policy, s Session) protocol.Decision {
	need, held := p.Holds(d.Tool, s)
	out := d
	out.ToolAllowed = d.ToolAllowed && p.Allowed(d.Tool)
	out.Grant = consideredGrant(need, held, s)
	reason := protocol.ReasonOK
	switch {
	case !out.ToolAllowed:
		reason = protocol.ReasonToolNotAllowlisted
	case !out.ArgumentsValid:
		reason = protocol.ReasonArgumentsInvalid
	case !held:
		reason = protocol.ReasonGrantMissing
	}
	switch {
	case reason != protocol.ReasonOK:
		out.Decision, out.Reason = protocol.DecisionDeny, reason
	case d.Decision == protocol.DecisionDeny:
		out.Reason = protocol.ReasonGrantMissing // the only deny reason left when every check holds
	case p.NeedsApproval(d.Tool) || d.Decision == protocol.DecisionAsk:
		out.Decision, out.Reason = protocol.DecisionAsk, protocol.ReasonOK
	default:
		out.Decision, out.Reason = protocol.DecisionAllow, protocol.ReasonOK
	}
	return out
}

// consideredGrant is the Grant of a decision: the needed grant when s holds
// it, otherwise the first grant s holds, or "".
func consideredGrant(need string, held bool, s Session) string {
	switch {
	case held:
		return need
	case len(s.Grants) > 0:
		return s.Grants[0]
	}
	return ""
}

// decisionJSON is the closed Draft 2020-12 schema of a Decision.
//
//go:embed schemas/decision.json
var decisionJSON []byte

// decisionSchema compiles decisionJSON once.
var decisionSchema = sync.OnceValues(func() (*Schema, error) {
	return Compile("decision", decisionJSON)
})

// DecisionSchema returns a copy of the closed Draft 2020-12 schema
// [ValidateDecision] checks against.
func DecisionSchema() []byte {
	return append([]byte(nil), decisionJSON...)
}

// ValidateDecision checks d against the closed decision schema: names that
// match [NamePattern], a decision and reason from the closed lists, and a
// consistent record (allow and ask only with valid arguments, an
// allowlisted tool and reason ok; a deny's reason the first failed check).
// It returns nil or a *Rejection{protocol.GateSchema, "schema_violation"}.
func ValidateDecision(d protocol.Decision) error {
	sch, err := decisionSchema()
	if err != nil {
		return fmt.Errorf("decision schema: %w", err)
	}
	b, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("decision: %w", err)
	}
	v, err := ParseJSON(b, DefaultLimits())
	if err != nil {
		return fmt.Errorf("decision: %w", err)
	}
	return sch.Validate(v)
}
