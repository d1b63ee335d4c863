package targets

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/toolcert/toolcert/protocol"
)

// URL is a Target for an adapter that is already running. It ignores the
// lane's Env: the adapter must already be wired to the mock upstream the
// harness listens on (see the CLI's --upstream-listen) and write its audit
// log where the harness reads it. Start only checks /healthz; Stop does
// nothing to the adapter.
type URL struct {
	base string
	cfg  urlConfig
}

var _ Target = (*URL)(nil)

type urlConfig struct {
	readyTimeout time.Duration
	health       string
}

func defaultURLConfig() urlConfig {
	return urlConfig{readyTimeout: defaultReadyTimeout, health: protocol.HealthPath}
}

// NewURL returns a target for the adapter at base, an http or https URL on
// loopback ("localhost" or a loopback IP), without query or fragment. A
// trailing slash is dropped.
func NewURL(base string, opts ...URLOption) (*URL, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("new url target: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("new url target %q: scheme must be http or https", base)
	}
	if !isLoopback(u.Hostname()) {
		return nil, fmt.Errorf("new url target %q: host must be on loopback", base)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return nil, fmt.Errorf("new url target %q: want scheme://host:port[/path] only", base)
	}
	cfg := defaultURLConfig()
	for _, o := range opts {
		o.applyURL(&cfg)
	}
	return &URL{base: strings.TrimRight(u.String(), "/"), cfg: cfg}, nil
}

// isLoopback reports whether host names the loopback interface.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// String returns "url " and the base URL.
func (t *URL) String() string { return "url " + t.base }

// Start waits for GET /healthz to answer 200 and returns the running
// adapter; env is ignored. The caller must call Stop on the instance.
func (t *URL) Start(ctx context.Context, _ Env) (Instance, error) {
	inst := &urlInstance{base: t.base, health: t.cfg.health, probe: newProbeClient()}
	if err := waitReady(ctx, inst.probe, t.base, t.cfg.health, t.cfg.readyTimeout, nil); err != nil {
		return nil, fmt.Errorf("start %s: %w", t, err)
	}
	return inst, nil
}

// urlInstance is an adapter that runs outside the harness's control.
type urlInstance struct {
	base    string
	health  string
	probe   *http.Client
	stopped atomic.Bool
}

var _ Instance = (*urlInstance)(nil)

// URL returns the base URL.
func (i *urlInstance) URL() string { return i.base }

// Logs returns "": the adapter's output is not visible to the harness.
func (i *urlInstance) Logs() string { return "" }

// Alive returns the health check's result, or ErrStopped after Stop.
func (i *urlInstance) Alive(ctx context.Context) error {
	if i.stopped.Load() {
		return fmt.Errorf("alive %s: %w", i.base, ErrStopped)
	}
	if err := checkHealth(ctx, i.probe, i.base, i.health); err != nil {
		return fmt.Errorf("alive %s: %w", i.base, err)
	}
	return nil
}

// Stop leaves the adapter running; it only releases connections.
func (i *urlInstance) Stop(context.Context) error {
	i.stopped.Store(true)
	i.probe.CloseIdleConnections()
	return nil
}
