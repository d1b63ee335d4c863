package targets

import "strings"

// Capabilities are what a target has beyond tool calls (docs/protocol.md,
// "Capabilities and steps that do not apply"). A step that needs one the
// target lacks is not applicable.
type Capabilities struct {
	// Audit: the harness can read the target's audit log, and a result
	// names the request id its event carries.
	Audit bool
	// Policy: the target takes the session's token and decides each call
	// by the policy's sessions, grants and allowlist.
	Policy bool
	// Approvals: the target serves the human's approval endpoint.
	Approvals bool
}

// V1Capabilities are a protocol v1 target's: all of them; audit only when
// the harness can read the log.
func V1Capabilities(auditReadable bool) Capabilities {
	return Capabilities{Audit: auditReadable, Policy: true, Approvals: true}
}

// The names of the capabilities, as a config file lists them.
const (
	CapabilityAudit     = "audit"
	CapabilityPolicy    = "policy"
	CapabilityApprovals = "approvals"
)

// String lists the capabilities by name, or "none".
func (c Capabilities) String() string {
	var names []string
	for _, x := range []struct {
		has  bool
		name string
	}{{c.Audit, CapabilityAudit}, {c.Policy, CapabilityPolicy}, {c.Approvals, CapabilityApprovals}} {
		if x.has {
			names = append(names, x.name)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
