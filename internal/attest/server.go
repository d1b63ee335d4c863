package attest

import (
	"context"
	"sync"

	"github.com/toolcert/toolcert/targets"
)

// ServerRecorder is a Target that starts the target it wraps and keeps
// what the first MCP instance it started said of itself in initialize.
// Its instances are the wrapped target's own, so the run sees no
// difference. Use it for MCP targets only: runner tells some kinds apart
// by the Target's type.
type ServerRecorder struct {
	targets.Target

	mu            sync.Mutex
	name, version string
	seen          bool
}

var _ targets.Target = (*ServerRecorder)(nil)

// NewServerRecorder returns a recorder that starts t.
func NewServerRecorder(t targets.Target) *ServerRecorder { return &ServerRecorder{Target: t} }

// Start starts an instance of the wrapped target and, for the first MCP
// instance, keeps its server's name and version.
func (r *ServerRecorder) Start(ctx context.Context, env targets.Env) (targets.Instance, error) {
	inst, err := r.Target.Start(ctx, env)
	if mi, ok := inst.(targets.MCPInstance); ok && err == nil {
		if s := mi.Server(); s != nil {
			r.mu.Lock()
			if !r.seen {
				r.name, r.version, r.seen = s.Name, s.Version, true
			}
			r.mu.Unlock()
		}
	}
	return inst, err
}

// Server returns the name and version the first MCP instance reported,
// and whether one did.
func (r *ServerRecorder) Server() (name, version string, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.name, r.version, r.seen
}
