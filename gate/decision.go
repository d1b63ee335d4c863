package gate

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"
)

// The decisions of a [Decision] record.
const (
	DecisionAllow = "allow"
	DecisionDeny  = "deny"
	DecisionAsk   = "ask"
)

// Decision is the record of one tool call's authorization (A3): the facts
// it was decided from and the outcome. The reasons are [ReasonOK],
// [ReasonGrantMissing], [ReasonToolNotAllowlisted] and
// [ReasonArgumentsInvalid].
type Decision struct {
	// Tool is the tool called.
	Tool string `json:"tool"`
	// ArgumentsValid tells whether the arguments passed the tool's closed
	// argument schema.
	ArgumentsValid bool `json:"argumentsValid"`
	// ToolAllowed tells whether the tool is on the allowlist.
	ToolAllowed bool `json:"toolAllowed"`
	// Grant is the grant of the session that was considered: the tool's
	// grant when the session holds it, otherwise the session's first grant,
	// "" when it holds none.
	Grant string `json:"grant"`
	// Decision is DecisionAllow, DecisionDeny or DecisionAsk.
	Decision string `json:"decision"`
	// Reason is "ok" for allow and ask, otherwise the first check that
	// failed, in the order allowlist, arguments, grant.
	Reason string `json:"reason"`
}

// Decide decides a call of tool by session s whose arguments were (or were
// not) valid: it proposes "allow" and lets [Apply] turn it into what the
// policy permits.
func (p *Policy) Decide(tool string, argumentsValid bool, s Session) Decision {
	grant, _ := p.Holds(tool, s)
	d := Decision{
		Tool: tool, ArgumentsValid: argumentsValid, ToolAllowed: p.Allowed(tool),
		Grant: grant, Decision: DecisionAllow, Reason: ReasonOK,
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
func Apply(d Decision, p *Policy, s Session) Decision {
	need, held := p.Holds(d.Tool, s)
	out := d
	out.ToolAllowed = d.ToolAllowed && p.Allowed(d.Tool)
	out.Grant = consideredGrant(need, held, s)
	reason := ReasonOK
	switch {
	case !out.ToolAllowed:
		reason = ReasonToolNotAllowlisted
	case !out.ArgumentsValid:
		reason = ReasonArgumentsInvalid
	case !held:
		reason = ReasonGrantMissing
	}
	switch {
	case reason != ReasonOK:
		out.Decision, out.Reason = DecisionDeny, reason
	case d.Decision == DecisionDeny:
		out.Reason = ReasonGrantMissing // the only deny reason left when every check holds
	case p.NeedsApproval(d.Tool) || d.Decision == DecisionAsk:
		out.Decision, out.Reason = DecisionAsk, ReasonOK
	default:
		out.Decision, out.Reason = DecisionAllow, ReasonOK
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
// It returns nil or a *Rejection{GateSchema, "schema_violation"}.
func ValidateDecision(d Decision) error {
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
