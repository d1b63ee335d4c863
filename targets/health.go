package targets

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/toolcert/toolcert/protocol"
)

// Defaults of the readiness and liveness checks.
const (
	defaultReadyTimeout = protocol.ReadyTimeout
	readyPollInterval   = 25 * time.Millisecond
	probeTimeout        = 2 * time.Second
	probeBodyBytes      = 4 << 10
)

// newProbeClient returns the HTTP client of health checks: no proxy, no
// redirects, no kept-alive connections, bounded headers.
func newProbeClient() *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			Proxy:                  nil,
			DisableKeepAlives:      true,
			DisableCompression:     true,
			MaxResponseHeaderBytes: 64 << 10,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// checkHealth returns nil when GET {base}{health} answers 200 within
// probeTimeout (or ctx's earlier deadline); for health "", when base's
// address accepts a TCP connection.
func checkHealth(ctx context.Context, client *http.Client, base, health string) error {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	if health == "" {
		return dialable(ctx, base)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+health, nil)
	if err != nil {
		return fmt.Errorf("healthz: %w", err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("healthz: %w", err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, probeBodyBytes))
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthz: status %q", resp.Status)
	}
	return nil
}

// waitReady polls checkHealth until it succeeds, timeout passes, ctx ends or
// exited is closed (nil: never). It returns nil, an error wrapping
// ErrNotReady and the last probe error, ctx's error, or errExited.
func waitReady(ctx context.Context, client *http.Client, base, health string, timeout time.Duration, exited <-chan struct{}) error {
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if exited != nil {
		go func() {
			select {
			case <-exited:
				cancel()
			case <-wctx.Done():
			}
		}()
	}
	tick := time.NewTicker(readyPollInterval)
	defer tick.Stop()
	var last error
	for {
		err := checkHealth(wctx, client, base, health)
		if err == nil {
			return nil
		}
		if wctx.Err() == nil || last == nil {
			last = err
		}
		select {
		case <-tick.C:
			continue
		case <-wctx.Done():
		}
		select {
		case <-exited:
			return errExited
		default:
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("wait for %s%s: %w", base, health, err)
		}
		return fmt.Errorf("wait for %s%s: %w after %s (last: %v)", base, health, ErrNotReady, timeout, last)
	}
}

// errExited tells a driver that its process exited while waitReady waited;
// the driver replaces it with an *ExitError.
var errExited = errors.New("exited while waiting")

// alive is the Alive of an instance that can exit (a process, a
// container): ErrStopped after Stop; an *ExitError once it has exited,
// also when a failed health check finds it dying (it waits exitSettle for
// the exit to be reaped, so the evidence gives the exit status rather than
// a reset connection); else the health check's result.
func alive(ctx context.Context, name string, stopped bool, done <-chan struct{}, exitErr func() *ExitError, probe *http.Client, base, health string) error {
	if stopped {
		return fmt.Errorf("alive %s: %w", name, ErrStopped)
	}
	if closed(done) {
		return fmt.Errorf("alive %s: %w", name, exitErr())
	}
	if err := checkHealth(ctx, probe, base, health); err != nil {
		if closedWithin(ctx, done, exitSettle) {
			return fmt.Errorf("alive %s: %w", name, exitErr())
		}
		return fmt.Errorf("alive %s: %w", name, err)
	}
	return nil
}

// exitSettle is how long alive waits, after a failed health check, for a
// dying instance's exit to be reaped.
const exitSettle = 500 * time.Millisecond

// closed reports whether done is closed.
func closed(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// closedWithin reports whether done is closed or closes within d (or
// before ctx ends).
func closedWithin(ctx context.Context, done <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return closed(done)
}

// dialable returns nil when the host and port of base accept a TCP
// connection.
func dialable(ctx context.Context, base string) error {
	u, err := url.Parse(base)
	if err != nil {
		return fmt.Errorf("probe %s: %w", base, err)
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return fmt.Errorf("probe %s: %w", base, err)
	}
	return c.Close()
}
