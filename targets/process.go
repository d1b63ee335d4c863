package targets

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/toolcert/toolcert/protocol"
)

// Process is a Target that runs a local executable per lane, with the
// protocol's environment variables on top of the harness's own environment.
//
// On Linux the process gets SIGKILL when the harness dies, even of SIGKILL
// (a parent-death signal; the processes it starts do not inherit it), and
// Stop kills what the adapter left running once its process group was
// ended. Its instances implement LeftoverReporter, which names those, and
// ExposureChecker, which names the addresses beyond loopback that the
// adapter's processes listen on. The processes a harness killed with
// SIGKILL leaves running are killed by the next harness (see
// protocol.VarOwner).
type Process struct {
	argv []string
	cfg  processConfig
}

var _ Target = (*Process)(nil)

type processConfig struct {
	dir          string
	rename       map[string]string
	extraEnv     map[string]string
	files        []FileTemplate
	health       string
	readyTimeout time.Duration
	stopGrace    time.Duration
	killWait     time.Duration
	pipeWait     time.Duration
}

func defaultProcessConfig() processConfig {
	return processConfig{
		readyTimeout: defaultReadyTimeout,
		health:       protocol.HealthPath,
		stopGrace:    3 * time.Second,
		killWait:     3 * time.Second,
		pipeWait:     time.Second,
	}
}

type processOption func(*processConfig)

func (o processOption) applyProcess(c *processConfig) { o(c) }

// WithDir sets the working directory of the process (default: the
// harness's).
func WithDir(dir string) ProcessOption {
	return processOption(func(c *processConfig) { c.dir = dir })
}

// WithRename maps protocol variable names (TOOLCERT_*) to the names the
// adapter reads; see Env.Vars. The map is copied.
func WithRename(rename map[string]string) ProcessOption {
	rename = maps.Clone(rename)
	return processOption(func(c *processConfig) { c.rename = rename })
}

// WithExtraEnv adds variables to every instance's environment, after the
// inherited ones and before the lane's (which win). The map is copied.
func WithExtraEnv(vars map[string]string) ProcessOption {
	vars = maps.Clone(vars)
	return processOption(func(c *processConfig) { c.extraEnv = vars })
}

// WithFiles writes files for each lane before the process starts (a
// config file, a kubeconfig naming the lane's mock). The slice is copied.
func WithFiles(files ...FileTemplate) ProcessOption {
	files = slices.Clone(files)
	return processOption(func(c *processConfig) { c.files = files })
}

// WithStopGrace sets how long Stop waits after SIGTERM before it sends
// SIGKILL (default 3 s). A value <= 0 keeps the default.
func WithStopGrace(d time.Duration) ProcessOption {
	return processOption(func(c *processConfig) {
		if d > 0 {
			c.stopGrace = d
		}
	})
}

// NewProcess returns a target that runs argv (argv[0] is looked up in PATH
// when it holds no slash). Use SplitCommand to turn a command line into
// argv. Command words and extra environment values may name the lane's
// values ({{.UpstreamURL}} and the others of LaneValues), filled in per
// lane.
func NewProcess(argv []string, opts ...ProcessOption) (*Process, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, fmt.Errorf("new process target: %w", ErrEmptyCommand)
	}
	cfg := defaultProcessConfig()
	for _, o := range opts {
		o.applyProcess(&cfg)
	}
	return &Process{argv: slices.Clone(argv), cfg: cfg}, nil
}

// String returns "process " and the command line, quoted so that
// SplitCommand reads it back.
func (p *Process) String() string {
	words := make([]string, len(p.argv))
	for i, a := range p.argv {
		words[i] = quoteWord(a)
	}
	return "process " + strings.Join(words, " ")
}

// Start runs the process in its own process group, listening on env.Listen
// (a free 127.0.0.1 port when empty), and waits for GET /healthz to answer
// 200. It fails fast with an *ExitError when the process exits first. The
// caller must call Stop on the instance, and may then read its Leftovers
// (LeftoverReporter).
func (p *Process) Start(ctx context.Context, env Env) (Instance, error) {
	if env.Listen == "" {
		addr, err := FreePort()
		if err != nil {
			return nil, fmt.Errorf("start %s: %w", p, err)
		}
		env.Listen = addr
	}
	base, err := baseURL(env.Listen)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", p, err)
	}
	inst, err := p.launch(env, base)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", p, err)
	}
	err = waitReady(ctx, inst.probe, base, inst.health, p.cfg.readyTimeout, inst.done)
	if err == nil {
		return inst, nil
	}
	if errors.Is(err, errExited) {
		return nil, fmt.Errorf("start %s: %w", p, inst.exitError())
	}
	note := ""
	if errors.Is(err, ErrNotReady) {
		note = listenNote(inst.tree, env.Listen, listenVar(p.cfg.rename))
	}
	stopErr := inst.Stop(context.Background())
	err = fmt.Errorf("start %s: %w", p, notReady(err, note, inst.logs))
	return nil, errors.Join(err, stopErr)
}

// launch starts the command, its output going to the instance's logs,
// and the goroutine that waits for it.
func (p *Process) launch(env Env, base string) (*processInstance, error) {
	return p.start(p.String(), env, base, func(cmd *exec.Cmd, inst *processInstance) error {
		cmd.Stdout = inst.logs
		cmd.Stderr = inst.logs
		return nil
	})
}

// start starts the command in its own process group with the lane's
// environment, wire connecting its standard streams, and the goroutine
// that waits for it (processInstance.run). The instance is named name and
// answers at base ("" for none).
func (p *Process) start(name string, env Env, base string, wire func(*exec.Cmd, *processInstance) error) (*processInstance, error) {
	inst := &processInstance{lifecycle: newLifecycle(name, base), stopGrace: p.cfg.stopGrace, killWait: p.cfg.killWait}
	inst.health = p.cfg.health
	inst.exitError, inst.halt = inst.exitStatus, inst.stop
	argv, environ, err := p.forLane(env)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = p.cfg.dir
	cmd.Env = environ
	cmd.WaitDelay = p.cfg.pipeWait
	if err := wire(cmd, inst); err != nil {
		return nil, err
	}
	setProcAttr(cmd)
	_ = becomeSubreaper() // without it, orphans are found only if seen before
	sweepOrphans()        // what harnesses killed with SIGKILL left running
	if err := inst.launch(cmd, laneMarkers(env, p.cfg.rename)); err != nil {
		return nil, err
	}
	return inst, nil
}

// forLane returns the command words and the environment of the lane of
// env, its values filled in, after writing the lane's files.
func (p *Process) forLane(env Env) ([]string, []string, error) {
	v := env.Values()
	for _, f := range p.cfg.files {
		if _, err := f.write(v); err != nil {
			return nil, nil, err
		}
	}
	argv, err := expandAll(p.argv, v)
	if err != nil {
		return nil, nil, fmt.Errorf("command: %w", err)
	}
	extra := make(map[string]string, len(p.cfg.extraEnv))
	for name, value := range p.cfg.extraEnv {
		if extra[name], err = Expand(value, v); err != nil {
			return nil, nil, fmt.Errorf("environment %s: %w", name, err)
		}
	}
	return argv, p.environ(env, extra), nil
}

// environ returns the harness's environment without any inherited protocol
// variable (TOOLCERT_* or a renamed one), then the extra variables, then the
// lane's, then protocol.VarOwner naming this harness: last, so that no
// variable of that name (an extra one, or one renamed to it) wins, and
// never renamed.
func (p *Process) environ(env Env, extra map[string]string) []string {
	renamed := make(map[string]bool, len(p.cfg.rename))
	for _, to := range p.cfg.rename {
		renamed[to] = true
	}
	var vars []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, protocol.VarPrefix) || renamed[name] {
			continue
		}
		vars = append(vars, kv)
	}
	for _, name := range slices.Sorted(maps.Keys(extra)) {
		vars = append(vars, name+"="+extra[name])
	}
	vars = append(vars, env.Vars(p.cfg.rename)...)
	return append(vars, protocol.VarOwner+"="+harnessOwner().String())
}
