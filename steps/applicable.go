package steps

import (
	"errors"
	"fmt"

	"github.com/cucumber/godog"

	"github.com/toolcert/toolcert/internal/harness"
)

// ErrNotApplicable is matched (errors.Is) by the error of a step that needs
// something the target does not have (docs/protocol.md, "Capabilities and
// steps that do not apply"). godog skips the rest of the scenario, and the
// runner records the scenario as not applicable, never as passed.
var ErrNotApplicable = errors.New("not applicable")

// notApplicableError is a step's not-applicable error: it matches
// ErrNotApplicable and godog.ErrSkip.
type notApplicableError struct{ why string }

// Error returns "not applicable: " and the reason.
func (e *notApplicableError) Error() string { return "not applicable: " + e.why }

// Is matches ErrNotApplicable and godog.ErrSkip.
func (e *notApplicableError) Is(target error) bool {
	return target == ErrNotApplicable || target == godog.ErrSkip
}

// notApplicable returns the error of a step that does not apply, with the
// reason built like fmt.Sprintf.
func notApplicable(format string, args ...any) error {
	return &notApplicableError{why: fmt.Sprintf(format, args...)}
}

// needAudit returns nil when the harness can read the target's audit log.
func (w *world) needAudit() error {
	if !w.suite.Capabilities.Audit {
		return notApplicable("the target has no audit log the harness can read")
	}
	return nil
}

// needPolicy returns nil when the target decides calls by the policy's
// sessions and grants.
func (w *world) needPolicy() error {
	if !w.suite.Capabilities.Policy {
		return notApplicable("the target does not take the session's token and decide by the policy's grants")
	}
	return nil
}

// needApprovals returns nil when the target serves the human's approval
// endpoint.
func (w *world) needApprovals() error {
	if !w.suite.Capabilities.Approvals {
		return notApplicable("the target has no approval endpoint for the human")
	}
	return nil
}

// needV1 returns nil when the target speaks protocol v1, whose raw
// invocation bodies some steps send.
func (w *world) needV1(what string) error {
	if p := w.suite.agent().Protocol(); p != harness.ProtocolV1 {
		return notApplicable("%s is protocol v1's, and the target speaks %s", what, p)
	}
	return nil
}

// unsupportedVersion returns nil when the adapter's profile does not
// declare upstream version of tool supported; a scenario about rejecting
// such an answer does not apply to an adapter that supports it.
func (w *world) unsupportedVersion(version, tool string) error {
	if w.suite.Profile.Supports(tool, version) {
		return notApplicable("the profile declares %s's upstream version %s supported", tool, version)
	}
	return nil
}
