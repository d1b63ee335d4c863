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
}

// Lanes hands out lanes to scenarios. Acquire blocks until a lane is free;
// the caller must Release it when the scenario ends.
type Lanes interface {
	Acquire(ctx context.Context) (*Lane, error)
	Release(*Lane)
}
