package runner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/toolcert/toolcert/mocks"
	"github.com/toolcert/toolcert/steps"
	"github.com/toolcert/toolcert/target"
)

// lanes is the pool of isolated mock + target pairs a run's scenarios take
// turns on. It implements steps.Lanes.
type lanes struct {
	cfg  *Config
	free chan *steps.Lane
	all  []*steps.Lane
	// restarts counts the targets started again after they died.
	restarts atomic.Int64
}

var _ steps.Lanes = (*lanes)(nil)

// startLanes starts cfg.Concurrency lanes, or one for a target that is
// already running. The caller must call close.
func startLanes(ctx context.Context, cfg *Config, dir string) (*lanes, error) {
	n := cfg.Concurrency
	if cfg.UpstreamListen != "" {
		n = 1
	}
	p := &lanes{cfg: cfg, free: make(chan *steps.Lane, n)}
	for i := 1; i <= n; i++ {
		lane, err := p.start(ctx, i, dir)
		if err != nil {
			p.close(ctx)
			return nil, fmt.Errorf("start lane %d: %w", i, err)
		}
		p.all = append(p.all, lane)
		p.free <- lane
	}
	return p, nil
}

func (p *lanes) start(ctx context.Context, id int, dir string) (*steps.Lane, error) {
	var opts []mocks.Option
	if p.cfg.UpstreamListen != "" {
		opts = append(opts, mocks.WithAddr(p.cfg.UpstreamListen))
	}
	up, err := mocks.NewUpstream(opts...)
	if err != nil {
		return nil, fmt.Errorf("start mock upstream: %w", err)
	}
	lane := &steps.Lane{ID: id, Upstream: up, AuditFile: p.cfg.AuditFile}
	if p.cfg.UpstreamListen == "" {
		laneDir := filepath.Join(dir, fmt.Sprintf("lane-%d", id))
		if err := os.MkdirAll(laneDir, 0o755); err != nil {
			up.Close()
			return nil, fmt.Errorf("create lane folder: %w", err)
		}
		lane.AuditFile = filepath.Join(laneDir, "audit.jsonl")
		policy, err := writePolicy(p.cfg, laneDir)
		if err != nil {
			up.Close()
			return nil, err
		}
		lane.PolicyFile = policy
	}
	if err := p.startTarget(ctx, lane); err != nil {
		up.Close()
		return nil, err
	}
	return lane, nil
}

func (p *lanes) startTarget(ctx context.Context, lane *steps.Lane) error {
	env := target.Env{
		UpstreamURL: lane.Upstream.URL(),
		AuditFile:   lane.AuditFile,
		PolicyFile:  lane.PolicyFile,
		Extra:       p.cfg.Profile.Vars(),
	}
	inst, err := p.cfg.Target.Start(ctx, env)
	if err != nil {
		return fmt.Errorf("start target %s: %w", p.cfg.Target, err)
	}
	lane.Target = inst
	return nil
}

// Acquire waits for a free lane. A lane whose target died in an earlier
// scenario (a crash is an adapter's right) gets a fresh target first, so
// one crash fails one scenario, not the rest of the run.
func (p *lanes) Acquire(ctx context.Context) (*steps.Lane, error) {
	var lane *steps.Lane
	select {
	case lane = <-p.free:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	actx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if lane.Target.Alive(actx) == nil {
		return lane, nil
	}
	if p.cfg.UpstreamListen != "" {
		return lane, nil // not ours to restart; the scenario will fail with the reason
	}
	sctx, scancel := context.WithTimeout(ctx, 5*time.Second)
	defer scancel()
	_ = lane.Target.Stop(sctx)
	p.restarts.Add(1)
	if err := p.startTarget(ctx, lane); err != nil {
		p.free <- lane
		return nil, fmt.Errorf("restart the dead target of lane %d: %w", lane.ID, err)
	}
	return lane, nil
}

// Release gives the lane back for the next scenario.
func (p *lanes) Release(lane *steps.Lane) { p.free <- lane }

// close stops every target and mock upstream, each within a bound.
func (p *lanes) close(ctx context.Context) error {
	var errs []error
	for _, lane := range p.all {
		sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		if lane.Target != nil {
			if err := lane.Target.Stop(sctx); err != nil {
				errs = append(errs, fmt.Errorf("stop target of lane %d: %w", lane.ID, err))
			}
		}
		cancel()
		if err := lane.Upstream.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close mock of lane %d: %w", lane.ID, err))
		}
	}
	return errors.Join(errs...)
}

// writePolicy copies the corpus's policy into the lane's folder, so that a
// target process can read it from a real path; "" when the corpus has none.
func writePolicy(cfg *Config, laneDir string) (string, error) {
	if cfg.Fixtures == nil {
		return "", nil
	}
	raw, err := fs.ReadFile(cfg.Fixtures, steps.PolicyFile)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read the corpus's policy: %w", err)
	}
	path := filepath.Join(laneDir, steps.PolicyFile)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		return "", fmt.Errorf("write the lane's policy: %w", err)
	}
	return path, nil
}
