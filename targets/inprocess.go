package targets

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/toolcert/toolcert/protocol"
)

// BuildFunc builds the handler of one in-process instance for env, whose
// Listen holds the address actually bound. The closer, when not nil, is
// closed after the server has stopped (e.g. the adapter's audit file).
type BuildFunc func(env Env) (http.Handler, io.Closer, error)

// InProcess is a Target served inside the harness: the reference adapter and
// the self-test's mutants. The caller passes the build function, so this
// package does not depend on any adapter.
type InProcess struct {
	name  string
	build BuildFunc
	cfg   inProcessConfig
}

var _ Target = (*InProcess)(nil)

type inProcessConfig struct {
	readyTimeout      time.Duration
	stopTimeout       time.Duration
	readHeaderTimeout time.Duration
	idleTimeout       time.Duration
	maxHeaderBytes    int
}

func defaultInProcessConfig() inProcessConfig {
	return inProcessConfig{
		readyTimeout:      defaultReadyTimeout,
		stopTimeout:       3 * time.Second,
		readHeaderTimeout: 5 * time.Second,
		idleTimeout:       30 * time.Second,
		maxHeaderBytes:    1 << 20,
	}
}

// NewInProcess returns a target named name (for reports) whose instances
// serve the handler build returns, on env.Listen or a free 127.0.0.1 port.
func NewInProcess(name string, build BuildFunc, opts ...InProcessOption) *InProcess {
	cfg := defaultInProcessConfig()
	for _, o := range opts {
		o.applyInProcess(&cfg)
	}
	return &InProcess{name: name, build: build, cfg: cfg}
}

// String returns "in-process <name>".
func (t *InProcess) String() string { return "in-process " + t.name }

// Start binds the listener, builds the handler, serves it and waits for
// GET /healthz to answer 200. The caller must call Stop on the instance.
func (t *InProcess) Start(ctx context.Context, env Env) (Instance, error) {
	if t.build == nil {
		return nil, fmt.Errorf("start %s: no build function", t)
	}
	addr := env.Listen
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", t, err)
	}
	env.Listen = l.Addr().String()
	handler, closer, err := t.build(env)
	if err == nil && handler == nil {
		err = errors.New("build returned no handler")
	}
	if err != nil {
		_ = l.Close()
		if closer != nil {
			_ = closer.Close()
		}
		return nil, fmt.Errorf("start %s: build: %w", t, err)
	}
	base, err := baseURL(env.Listen)
	if err != nil {
		base = "http://" + env.Listen
	}
	inst := t.serve(l, base, handler, closer)
	if err := waitReady(ctx, inst.probe, inst.base, protocol.HealthPath, t.cfg.readyTimeout, inst.served); err != nil {
		if errors.Is(err, errExited) {
			err = inst.serveError()
		}
		return nil, errors.Join(fmt.Errorf("start %s: %w", t, err), inst.Stop(context.Background()))
	}
	return inst, nil
}

// serve starts the HTTP server on l in a goroutine.
func (t *InProcess) serve(l net.Listener, base string, h http.Handler, closer io.Closer) *inProcessInstance {
	logs := newTailBuffer(logTailBytes)
	inst := &inProcessInstance{
		srv: &http.Server{
			Handler:           h,
			ReadHeaderTimeout: t.cfg.readHeaderTimeout,
			IdleTimeout:       t.cfg.idleTimeout,
			MaxHeaderBytes:    t.cfg.maxHeaderBytes,
			ErrorLog:          log.New(logs, "", log.LstdFlags),
		},
		closer:      closer,
		base:        base,
		logs:        logs,
		probe:       newProbeClient(),
		served:      make(chan struct{}),
		stopTimeout: t.cfg.stopTimeout,
	}
	go func() {
		inst.serveErr = inst.srv.Serve(l)
		close(inst.served)
	}()
	return inst
}

// inProcessInstance is one server of an InProcess target.
type inProcessInstance struct {
	srv         *http.Server
	closer      io.Closer
	base        string
	logs        *tailBuffer
	probe       *http.Client
	stopTimeout time.Duration

	served   chan struct{} // closed when Serve returned
	serveErr error         // set before served is closed

	stopOnce sync.Once
	stopErr  error
}

var (
	_ Instance  = (*inProcessInstance)(nil)
	_ LogCursor = (*inProcessInstance)(nil)
)

// URL returns the base URL.
func (i *inProcessInstance) URL() string { return i.base }

// Logs returns the tail of the server's error log.
func (i *inProcessInstance) Logs() string { return i.logs.String() }

// LogsSince returns what the adapter logged after mark (LogCursor).
func (i *inProcessInstance) LogsSince(mark int64) (string, int64) { return i.logs.since(mark) }

// Alive reports whether the server still serves and /healthz answers 200.
func (i *inProcessInstance) Alive(ctx context.Context) error {
	select {
	case <-i.served:
		return i.serveError()
	default:
	}
	if err := checkHealth(ctx, i.probe, i.base, protocol.HealthPath); err != nil {
		return fmt.Errorf("alive %s: %w", i.base, err)
	}
	return nil
}

// serveError describes why Serve returned; call it once served is closed.
func (i *inProcessInstance) serveError() error {
	if errors.Is(i.serveErr, http.ErrServerClosed) {
		return fmt.Errorf("in-process server %s: %w", i.base, ErrStopped)
	}
	return fmt.Errorf("in-process server %s stopped: %w", i.base, i.serveErr)
}

// Stop shuts the server down gracefully within the stop timeout (or ctx's
// earlier deadline), then closes what is left and the build's closer.
func (i *inProcessInstance) Stop(ctx context.Context) error {
	i.stopOnce.Do(func() {
		ctx, cancel := context.WithTimeout(ctx, i.stopTimeout)
		defer cancel()
		var errs []error
		if err := i.srv.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("shutdown: %w", err))
			_ = i.srv.Close()
		}
		i.probe.CloseIdleConnections()
		if i.closer != nil {
			if err := i.closer.Close(); err != nil {
				errs = append(errs, fmt.Errorf("close: %w", err))
			}
		}
		if err := errors.Join(errs...); err != nil {
			i.stopErr = fmt.Errorf("stop in-process server %s: %w", i.base, err)
		}
	})
	return i.stopErr
}
