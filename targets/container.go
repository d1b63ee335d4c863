package targets

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/mount"
	tc "github.com/testcontainers/testcontainers-go"
	tclog "github.com/testcontainers/testcontainers-go/log"
)

// ErrImageNotFound means a Container target's image is not in the local
// Docker engine. No registry is ever asked for it: build or load it first.
var ErrImageNotFound = errors.New("image not found locally (no registry is used)")

// Container is a Target that runs the adapter as one container per lane,
// from an image that is already in the local Docker engine, through
// testcontainers-go. The container uses the host's network, so the lane's
// loopback addresses (the mock upstream, TOOLCERT_LISTEN) are the same
// inside and out, and it sees the folders of the lane's audit and policy
// files at their host paths. Unlike Process, it does not inherit the
// harness's environment: it gets the image's, the extra variables and the
// lane's.
//
// Where Ryuk (testcontainers' reaper) cannot be pulled, the harness must be
// started with TESTCONTAINERS_RYUK_DISABLED=true; Start refuses to run
// otherwise, rather than wait for a pull. Without Ryuk, a harness killed
// with SIGKILL leaves its containers running; so every container carries
// labels naming the harness process that started it (dev.toolcert.run, a
// random ID of that process, dev.toolcert.pid, dev.toolcert.pid-start and
// dev.toolcert.pid-space), and every Start first removes the containers
// whose harness process no longer runs on this host.
//
// Its instances implement ExposureChecker: the container's processes are
// on this host's /proc, and on its network.
type Container struct {
	image string
	cfg   containerConfig
}

var _ Target = (*Container)(nil)

type containerConfig struct {
	cmd          []string
	rename       map[string]string
	extraEnv     map[string]string
	user         string
	readyTimeout time.Duration
	createWait   time.Duration
	stopGrace    time.Duration
	removeWait   time.Duration
	logsWait     time.Duration
}

func defaultContainerConfig() containerConfig {
	return containerConfig{
		user:         hostUser(),
		readyTimeout: defaultReadyTimeout,
		createWait:   time.Minute,
		stopGrace:    3 * time.Second,
		removeWait:   10 * time.Second,
		logsWait:     time.Second,
	}
}

// hostUser returns "uid:gid" of the harness, or "" where there is none.
func hostUser() string {
	if os.Getuid() < 0 {
		return ""
	}
	return fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid())
}

// ContainerOption configures a Container; see NewContainer.
type ContainerOption interface{ applyContainer(*containerConfig) }

type containerOption func(*containerConfig)

func (o containerOption) applyContainer(c *containerConfig) { o(c) }

func (o ReadyTimeoutOption) applyContainer(c *containerConfig) {
	if o.d > 0 {
		c.readyTimeout = o.d
	}
}

// WithContainerCmd sets the arguments passed to the image's entrypoint
// (the container's command; default: the image's CMD). The slice is copied.
func WithContainerCmd(args ...string) ContainerOption {
	args = slices.Clone(args)
	return containerOption(func(c *containerConfig) { c.cmd = args })
}

// WithContainerRename maps protocol variable names (TOOLCERT_*) to the names
// the adapter reads, as WithRename does for a process; see Env.Vars. The
// map is copied.
func WithContainerRename(rename map[string]string) ContainerOption {
	rename = maps.Clone(rename)
	return containerOption(func(c *containerConfig) { c.rename = rename })
}

// WithContainerEnv adds variables to every container's environment, after
// the image's and before the lane's (which win). The map is copied.
func WithContainerEnv(vars map[string]string) ContainerOption {
	vars = maps.Clone(vars)
	return containerOption(func(c *containerConfig) { c.extraEnv = vars })
}

// WithContainerUser sets the user the adapter runs as, "uid:gid" or a name
// the image knows. The default is the harness's own uid:gid, so that the
// adapter can read the policy file and the harness can read the audit log it
// writes; "" keeps the image's USER.
func WithContainerUser(user string) ContainerOption {
	return containerOption(func(c *containerConfig) { c.user = user })
}

// WithContainerStopGrace sets how long Stop waits after SIGTERM before it
// kills and removes the container (default 3 s). A value <= 0 keeps the
// default.
func WithContainerStopGrace(d time.Duration) ContainerOption {
	return containerOption(func(c *containerConfig) {
		if d > 0 {
			c.stopGrace = d
		}
	})
}

// NewContainer returns a target that runs image (a name or ID the local
// Docker engine knows, e.g. "my-adapter:dev"). Nothing is contacted until
// Start.
func NewContainer(image string, opts ...ContainerOption) (*Container, error) {
	if strings.TrimSpace(image) == "" {
		return nil, errors.New("new container target: empty image name")
	}
	cfg := defaultContainerConfig()
	for _, o := range opts {
		o.applyContainer(&cfg)
	}
	return &Container{image: image, cfg: cfg}, nil
}

// String returns "container ", the image and its arguments, quoted so that
// SplitCommand reads them back.
func (t *Container) String() string {
	words := []string{"container", quoteWord(t.image)}
	for _, a := range t.cfg.cmd {
		words = append(words, quoteWord(a))
	}
	return strings.Join(words, " ")
}

// Start runs a container of the image with host networking, listening on
// env.Listen (a free 127.0.0.1 port when empty), and waits for GET /healthz
// to answer 200. It never pulls: a missing image is an error wrapping
// ErrImageNotFound. It fails fast with an *ExitError when the container
// exits first. The caller must call Stop on the instance.
func (t *Container) Start(ctx context.Context, env Env) (Instance, error) {
	env, base, err := t.prepare(env)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", t, err)
	}
	inst, err := t.launch(ctx, env, base)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", t, err)
	}
	err = waitReady(ctx, inst.probe, base, inst.health, t.cfg.readyTimeout, inst.done)
	if err == nil {
		return inst, nil
	}
	if errors.Is(err, errExited) {
		exit := inst.exitError()
		return nil, errors.Join(fmt.Errorf("start %s: %w", t, exit), inst.Stop(context.Background()))
	}
	note := ""
	if errors.Is(err, ErrNotReady) {
		note = inst.listenNote(ctx, env.Listen, listenVar(t.cfg.rename))
	}
	stopErr := inst.Stop(context.Background())
	err = fmt.Errorf("start %s: %w", t, notReady(err, note, inst.logs))
	return nil, errors.Join(err, stopErr)
}

// prepare fills env.Listen, makes the file paths absolute (they are the
// same inside the container) and returns the base URL.
func (t *Container) prepare(env Env) (Env, string, error) {
	if env.Listen == "" {
		addr, err := FreePort()
		if err != nil {
			return env, "", err
		}
		env.Listen = addr
	}
	base, err := baseURL(env.Listen)
	if err != nil {
		return env, "", err
	}
	for _, p := range []*string{&env.AuditFile, &env.PolicyFile} {
		if *p == "" {
			continue
		}
		if *p, err = filepath.Abs(*p); err != nil {
			return env, "", err
		}
	}
	return env, base, nil
}

// launch checks the images, then creates and starts the container and the
// goroutines that follow it.
func (t *Container) launch(ctx context.Context, env Env, base string) (*containerInstance, error) {
	mounts, err := laneMounts(env)
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, t.cfg.createWait)
	defer cancel()
	quietTestcontainers()
	cli, err := tc.NewDockerClientWithOpts(cctx)
	if err != nil {
		return nil, fmt.Errorf("connect to the Docker engine: %w", err)
	}
	if err := checkImages(cctx, cli, t.image); err != nil {
		_ = cli.Close()
		return nil, err
	}
	// Best effort: an engine that cannot list or remove containers fails
	// the run below with a better error.
	_, _ = removeOrphans(cctx, cli)
	ctr, err := tc.Run(cctx, t.image, t.customizers(env, mounts)...)
	if err != nil {
		if ctr != nil {
			rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), t.cfg.removeWait)
			err = errors.Join(err, ctr.Terminate(rctx, tc.StopTimeout(0)))
			rcancel()
		}
		_ = cli.Close()
		return nil, fmt.Errorf("run container: %w", err)
	}
	inst := newContainerInstance(t, cli, ctr, base)
	go inst.wait()
	go inst.follow()
	return inst, nil
}

// customizers turn the configuration and the lane's env into the
// container request.
func (t *Container) customizers(env Env, mounts []mount.Mount) []tc.ContainerCustomizer {
	vars := maps.Clone(t.cfg.extraEnv)
	if vars == nil {
		vars = map[string]string{}
	}
	for _, kv := range env.Vars(t.cfg.rename) {
		name, value, _ := strings.Cut(kv, "=")
		vars[name] = value
	}
	opts := []tc.ContainerCustomizer{
		tc.WithLogger(tclog.NewNoopLogger()),
		tc.WithLabels(containerLabels(harnessOwner())),
		tc.WithEnv(vars),
		tc.WithConfigModifier(func(c *container.Config) { c.User = t.cfg.user }),
		tc.WithHostConfigModifier(func(h *container.HostConfig) {
			h.NetworkMode = "host"
			h.Mounts = append(h.Mounts, mounts...)
		}),
	}
	if t.cfg.cmd != nil {
		opts = append(opts, tc.WithCmd(t.cfg.cmd...))
	}
	return opts
}

// laneMounts bind-mounts the folder of the audit file read-write and the
// folder of the policy file read-only (when it is another folder), each at
// its host path.
func laneMounts(env Env) ([]mount.Mount, error) {
	var mounts []mount.Mount
	add := func(file string, readOnly bool) error {
		dir := filepath.Dir(file)
		if dir == filepath.Dir(dir) {
			return fmt.Errorf("%s is in the root folder, which cannot be mounted: use a folder of its own", file)
		}
		if !slices.ContainsFunc(mounts, func(m mount.Mount) bool { return m.Source == dir }) {
			mounts = append(mounts, mount.Mount{Type: mount.TypeBind, Source: dir, Target: dir, ReadOnly: readOnly})
		}
		return nil
	}
	if env.AuditFile != "" {
		if err := add(env.AuditFile, false); err != nil {
			return nil, err
		}
	}
	if env.PolicyFile != "" {
		if err := add(env.PolicyFile, true); err != nil {
			return nil, err
		}
	}
	return mounts, nil
}

// checkImages returns an error wrapping ErrImageNotFound when image is not
// in the local engine, and an error naming the setting to change when
// testcontainers would need Ryuk's image and it is not there either: both
// would otherwise be pulled.
func checkImages(ctx context.Context, cli *tc.DockerClient, image string) error {
	if _, err := cli.ImageInspect(ctx, image); err != nil {
		if cerrdefs.IsNotFound(err) {
			return fmt.Errorf("%w: %s", ErrImageNotFound, image)
		}
		return fmt.Errorf("inspect image %s: %w", image, err)
	}
	if tc.ReadConfig().Config.RyukDisabled {
		return nil
	}
	// The variable is deprecated but still the name testcontainers pulls;
	// a copy of the string here would drift on the next upgrade.
	//lint:ignore SA1019 still the image testcontainers pulls; a copy of its value would drift on an upgrade
	ryuk := tc.ReaperDefaultImage
	if _, err := cli.ImageInspect(ctx, ryuk); err != nil {
		if cerrdefs.IsNotFound(err) {
			return fmt.Errorf("%w: %s, the image of testcontainers' reaper (Ryuk): set TESTCONTAINERS_RYUK_DISABLED=true", ErrImageNotFound, ryuk)
		}
		return fmt.Errorf("inspect image %s: %w", ryuk, err)
	}
	return nil
}
