package harness

import (
	"context"

	"github.com/toolcert/toolcert/mocks"
	"github.com/toolcert/toolcert/targets"
)

// Lane is one isolated pair of a mock upstream and the target wired to it,
// with the target's own audit file. A lane serves one scenario at a time.
type Lane struct {
	// ID numbers the lane from 1.
	ID int
	// Upstream is the lane's mock upstream.
	Upstream *mocks.Upstream
	// Target is the running target, wired to Upstream.
	Target targets.Instance
	// AuditFile is the target's audit log; "" when the harness cannot read
	// it.
	AuditFile string
	// PolicyFile is the policy the target was started with ("" for none).
	PolicyFile string
	// Dir is the lane's folder ("" for an already running target's).
	Dir string
	// Exposed lists the addresses beyond loopback that the lane's targets
	// listened on, checked right after each started (restarts add theirs):
	// reachable from the network during certification, each a finding
	// (targets.ExposureChecker says how they are written). Nil when there
	// are none, or when the target cannot be checked: see ExposedErr.
	Exposed []string
	// ExposedErr says why the check of Exposed could not be made, or not
	// completely: it wraps errors.ErrUnsupported where the system or the
	// target cannot be checked (every system but Linux; a container whose
	// engine is on another host). It is nil when the check was made, and
	// for targets that are not the harness's to check (one already
	// running, one served in process).
	ExposedErr error
	// Leftovers lists the processes the lane's earlier targets left
	// running, which their Stop had to kill (targets.LeftoverReporter):
	// added when the pool replaces a dead target and when it closes, so
	// read it after Close for the whole run.
	Leftovers []string

	// audit is the time the lane has left to wait for late audit events
	// (audit.go).
	audit auditBudget
	// auditOpen keeps the audit log open between calls (audit.go).
	auditOpen keptFile
}

// Lanes hands out lanes to scenarios. Acquire blocks until a lane is free;
// the caller must Release it when the scenario ends.
type Lanes interface {
	Acquire(ctx context.Context) (*Lane, error)
	Release(*Lane)
}

// Lender is a Lanes that lends its free lanes for a while: a scenario
// whose work splits into independent cases (the generated variants) runs
// them on every lane no other scenario needs meanwhile.
type Lender interface {
	Lanes
	// TryAcquire returns a free lane without waiting, or false when none
	// is free or a caller of Acquire waits for one. The lane goes back
	// with Release.
	TryAcquire(ctx context.Context) (*Lane, bool)
	// Wanted reports whether a caller of Acquire waits for a lane: a
	// borrowed lane should go back after its current case.
	Wanted() bool
}

// Reviver is a Lanes that can start the target of a lane its caller holds
// again, when the target died or hangs: the case it happened in fails,
// and the next case runs on a new instance.
type Reviver interface {
	Revive(ctx context.Context, lane *Lane) error
}
