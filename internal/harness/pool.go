package harness

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/mocks"
	"github.com/toolcert/toolcert/targets"
)

// PoolConfig is what a Pool starts its lanes from.
type PoolConfig struct {
	// Lanes is the number of lanes; an already running target gets one.
	Lanes int
	// Target is the adapter under test.
	Target targets.Target
	// Profile is what the target declares; its limits reach the target as
	// the protocol's limit variables.
	Profile targets.Profile
	// Fixtures is the corpus, whose policy file every started target gets;
	// nil for none.
	Fixtures fs.FS
	// UpstreamListen is where the mock listens when the target is already
	// running (a targets.URL): the target must be wired to this address.
	UpstreamListen string
	// AuditFile is the audit log of an already running target; "" when the
	// harness cannot read it. Ignored for targets the harness starts.
	AuditFile string
	// Dir receives a folder per lane with its audit log and policy.
	Dir string
	// Side are the answers every lane's mock gives, for the whole run, on
	// routes no scenario programs (the corpus's routes.json): set before
	// the lane's target starts, kept across resets.
	Side []mocks.SideRoute
}

// Pool is the set of lanes a run's scenarios take turns on. It implements
// Lanes. Build it with StartPool; the caller must call Close.
type Pool struct {
	cfg  PoolConfig
	free chan *Lane
	all  []*Lane
	// restarts counts the targets started again after they died.
	restarts atomic.Int64
	// waiting counts the callers of Acquire waiting for a lane.
	waiting atomic.Int64
}

var (
	_ Lanes   = (*Pool)(nil)
	_ Lender  = (*Pool)(nil)
	_ Reviver = (*Pool)(nil)
)

// StartPool starts cfg.Lanes lanes (at least one), or one for a target that
// is already running. The lanes start in parallel, so a slow start costs
// its time once, not once per lane; when one fails, the others' starts are
// cancelled, what started is stopped (Close), and the error is the first
// failure's.
func StartPool(ctx context.Context, cfg PoolConfig) (*Pool, error) {
	n := max(cfg.Lanes, 1)
	if cfg.UpstreamListen != "" {
		n = 1
	}
	p := &Pool{cfg: cfg, free: make(chan *Lane, n)}
	sctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	lanes := make([]*Lane, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			lane, err := p.start(sctx, i+1)
			if err != nil {
				cancel(fmt.Errorf("start lane %d: %w", i+1, err)) // the first cause stays
				return
			}
			lanes[i] = lane
		})
	}
	wg.Wait()
	for _, lane := range lanes {
		if lane != nil {
			p.all = append(p.all, lane)
		}
	}
	if err := context.Cause(sctx); err != nil {
		p.Close(ctx)
		if ctx.Err() != nil {
			return nil, fmt.Errorf("start lanes: %w", ctx.Err())
		}
		return nil, err
	}
	for _, lane := range p.all {
		p.free <- lane
	}
	return p, nil
}

// Lanes returns every lane of the pool, free or not.
func (p *Pool) Lanes() []*Lane { return p.all }

// Restarts returns how many times a dead target was started again.
func (p *Pool) Restarts() int { return int(p.restarts.Load()) }

func (p *Pool) start(ctx context.Context, id int) (*Lane, error) {
	var opts []mocks.Option
	if p.cfg.UpstreamListen != "" {
		opts = append(opts, mocks.WithAddr(p.cfg.UpstreamListen))
	}
	up, err := mocks.NewUpstream(opts...)
	if err != nil {
		return nil, fmt.Errorf("start mock upstream: %w", err)
	}
	if err := up.Side(p.cfg.Side...); err != nil {
		up.Close()
		return nil, fmt.Errorf("serve the side routes: %w", err)
	}
	lane := &Lane{ID: id, Upstream: up, AuditFile: p.cfg.AuditFile}
	if p.cfg.UpstreamListen == "" {
		if err := p.laneFiles(lane); err != nil {
			up.Close()
			return nil, err
		}
	}
	if err := p.startTarget(ctx, lane); err != nil {
		up.Close()
		return nil, err
	}
	return lane, nil
}

// laneFiles creates the lane's folder with its audit log path and policy.
func (p *Pool) laneFiles(lane *Lane) error {
	dir := filepath.Join(p.cfg.Dir, fmt.Sprintf("lane-%d", lane.ID))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create lane folder: %w", err)
	}
	lane.Dir = dir
	lane.AuditFile = filepath.Join(dir, "audit.jsonl")
	policy, err := writePolicy(p.cfg.Fixtures, dir)
	if err != nil {
		return err
	}
	lane.PolicyFile = policy
	return nil
}

func (p *Pool) startTarget(ctx context.Context, lane *Lane) error {
	env := targets.Env{
		UpstreamURL: lane.Upstream.URL(),
		AuditFile:   lane.AuditFile,
		PolicyFile:  lane.PolicyFile,
		Dir:         lane.Dir,
		Extra:       p.cfg.Profile.Vars(),
	}
	inst, err := p.cfg.Target.Start(ctx, env)
	if err != nil {
		return err // a target's Start names it
	}
	lane.Target = inst
	found, err := exposed(ctx, inst)
	lane.Exposed, lane.ExposedErr = append(lane.Exposed, found...), err
	return nil
}

// exposed checks where inst listens beyond loopback, when it is an
// instance the harness can check.
func exposed(ctx context.Context, inst targets.Instance) ([]string, error) {
	checker, ok := inst.(targets.ExposureChecker)
	if !ok {
		return nil, nil
	}
	return checker.Exposed(ctx)
}

// stopTarget stops the lane's target, keeps what it left running, and
// appends what it printed to the lane's target.log.
func stopTarget(ctx context.Context, lane *Lane) error {
	err := lane.Target.Stop(ctx)
	if r, ok := lane.Target.(targets.LeftoverReporter); ok {
		lane.Leftovers = append(lane.Leftovers, r.Leftovers()...)
	}
	keepLogs(lane)
	return err
}

// TargetLog is the file, in each lane's folder, that receives what the
// lane's targets printed (the tail the harness kept of each, as it was
// when the target stopped or was replaced).
const TargetLog = "target.log"

// keepLogs appends the stopped target's output to the lane's TargetLog;
// a lane without a folder (a target already running) keeps none.
func keepLogs(lane *Lane) {
	logs := lane.Target.Logs()
	if lane.Dir == "" || logs == "" {
		return
	}
	f, err := os.OpenFile(filepath.Join(lane.Dir, TargetLog), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "=== %s, stopped %s\n%s\n", lane.Target, time.Now().UTC().Format(time.RFC3339), strings.TrimRight(logs, "\n"))
}

// Acquire waits for a free lane. A lane whose target died in an earlier
// scenario (a crash is an adapter's right) gets a fresh target first, so
// one crash fails one scenario, not the rest of the run.
func (p *Pool) Acquire(ctx context.Context) (*Lane, error) {
	var lane *Lane
	p.waiting.Add(1)
	select {
	case lane = <-p.free:
		p.waiting.Add(-1)
	case <-ctx.Done():
		p.waiting.Add(-1)
		return nil, ctx.Err()
	}
	return p.ready(ctx, lane)
}

// TryAcquire returns a free lane at once, ready as Acquire makes it, or
// false when none is free, a caller of Acquire waits, or its dead target
// cannot be started again.
func (p *Pool) TryAcquire(ctx context.Context) (*Lane, bool) {
	if p.Wanted() {
		return nil, false
	}
	select {
	case lane := <-p.free:
		lane, err := p.ready(ctx, lane)
		return lane, err == nil
	default:
		return nil, false
	}
}

// Wanted reports whether a caller of Acquire waits for a lane.
func (p *Pool) Wanted() bool { return p.waiting.Load() > 0 }

// ready returns lane once its target answers, after starting it again
// when it died; on error the lane is free again.
func (p *Pool) ready(ctx context.Context, lane *Lane) (*Lane, error) {
	if err := p.Revive(ctx, lane); err != nil {
		p.free <- lane
		return nil, err
	}
	return lane, nil
}

// Revive starts the target of lane, which the caller holds, again when it
// no longer answers (it exited, or its health check or ping failed within
// 2 s): a target that dies or hangs in one case fails that case, and the
// next runs on a new instance. A target the harness did not start is left
// as it is.
func (p *Pool) Revive(ctx context.Context, lane *Lane) error {
	actx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if lane.Target.Alive(actx) == nil || p.cfg.UpstreamListen != "" {
		return nil // alive, or not ours to restart: the scenario fails with the reason
	}
	sctx, scancel := context.WithTimeout(ctx, 5*time.Second)
	defer scancel()
	_ = stopTarget(sctx, lane)
	p.restarts.Add(1)
	if err := p.startTarget(ctx, lane); err != nil {
		return fmt.Errorf("restart the dead target of lane %d: %w", lane.ID, err)
	}
	return nil
}

// Release gives the lane back for the next scenario.
func (p *Pool) Release(lane *Lane) { p.free <- lane }

// Close stops every target and mock upstream, each within a bound, and
// adds what each target left running to its lane's Leftovers. The lanes
// stop in parallel, so a target that ignores SIGTERM costs its stop grace
// once, not once per lane; the errors come in the order of the lanes.
func (p *Pool) Close(ctx context.Context) error {
	errs := make([]error, len(p.all))
	var wg sync.WaitGroup
	for i, lane := range p.all {
		wg.Go(func() { errs[i] = closeLane(ctx, lane) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// closeLane stops the lane's target, within a bound, and its mock upstream.
func closeLane(ctx context.Context, lane *Lane) error {
	var errs []error
	if lane.Target != nil {
		sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		if err := stopTarget(sctx, lane); err != nil {
			errs = append(errs, fmt.Errorf("stop target of lane %d: %w", lane.ID, err))
		}
		cancel()
	}
	if err := lane.Upstream.Close(); err != nil {
		errs = append(errs, fmt.Errorf("close mock of lane %d: %w", lane.ID, err))
	}
	lane.auditOpen.close()
	return errors.Join(errs...)
}

// writePolicy copies the corpus's policy into the lane's folder, so that a
// target process can read it from a real path; "" when the corpus has none.
func writePolicy(fixtures fs.FS, laneDir string) (string, error) {
	if fixtures == nil {
		return "", nil
	}
	raw, err := fs.ReadFile(fixtures, corpus.PolicyFile)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read the corpus's policy: %w", err)
	}
	path := filepath.Join(laneDir, corpus.PolicyFile)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		return "", fmt.Errorf("write the lane's policy: %w", err)
	}
	return path, nil
}
