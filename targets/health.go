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
// address accepts a TCP connection. Its error is a *HealthError.
func checkHealth(ctx context.Context, client *http.Client, base, health string) error {
	within := probeWithin(ctx)
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	if health == "" {
		addr, err := dialable(ctx, base)
		if err != nil {
			return &HealthError{URL: addr, TCP: true, Within: within, Err: noAnswer(err)}
		}
		return nil
	}
	e := &HealthError{URL: base + health, Within: within}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.URL, nil)
	if err != nil {
		e.Err = err
		return e
	}
	resp, err := client.Do(req)
	if err != nil {
		e.Err = noAnswer(err)
		return e
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, probeBodyBytes))
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		e.Status = resp.Status
		return e
	}
	return nil
}

// probeWithin is how long a probe made now with ctx waits at most:
// probeTimeout, or less when ctx ends sooner (rounded to 10 ms).
func probeWithin(ctx context.Context) time.Duration {
	within := probeTimeout
	if dl, ok := ctx.Deadline(); ok {
		within = min(within, time.Until(dl).Round(10*time.Millisecond))
	}
	return max(within, 0)
}

// noAnswer is why a probe got no answer: err without the URL it repeats,
// "no answer in time" for a probe that ran out of time.
func noAnswer(err error) error {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("no answer in time (%w)", err)
	}
	return err
}

// waitReady polls checkHealth until it succeeds, timeout passes, ctx ends or
// exited is closed (nil: never). It returns nil, an error wrapping
// ErrNotReady and the last probe's *HealthError, ctx's error, or
// errExited.
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
		return notReadyError(base, health, timeout, last)
	}
}

// notReadyError says that no probe of base's health succeeded within
// timeout, and what the last one got.
func notReadyError(base, health string, timeout time.Duration, last error) error {
	reason := last.Error()
	var herr *HealthError
	if errors.As(last, &herr) {
		reason = herr.Reason()
	}
	if health == "" {
		return fmt.Errorf("%w after %s: no TCP connection to %s (the last probe: %s)", ErrNotReady, timeout, hostOf(base), reason)
	}
	return fmt.Errorf("%w after %s: no 200 from GET %s%s (the last probe: %s)", ErrNotReady, timeout, base, health, reason)
}

// errExited tells a driver that its process exited while waitReady waited;
// the driver replaces it with an *ExitError.
var errExited = errors.New("exited while waiting")

// alive is the Alive of an instance that can exit (a process, a
// container): ErrStopped after Stop; an *ExitError once it has exited,
// also when a failed health check finds it dying (it waits exitSettle for
// the exit to be reaped, so the evidence gives the exit status rather than
// a reset connection); else the health check's *HealthError, said of an
// instance that still runs.
func alive(ctx context.Context, name string, stopped bool, done <-chan struct{}, exitErr func() *ExitError, probe *http.Client, base, health string) error {
	if stopped {
		return fmt.Errorf("%s: %w", name, ErrStopped)
	}
	if closed(done) {
		return fmt.Errorf("%s: %w", name, exitErr())
	}
	if err := checkHealth(ctx, probe, base, health); err != nil {
		if closedWithin(ctx, done, exitSettle) {
			return fmt.Errorf("%s: %w", name, exitErr())
		}
		return fmt.Errorf("%s still runs, but %w", name, err)
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
// connection; it returns the address it dialed.
func dialable(ctx context.Context, base string) (string, error) {
	addr := hostOf(base)
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return addr, err
	}
	return addr, c.Close()
}

// hostOf returns the host and port of the URL base, or base itself when
// it does not parse.
func hostOf(base string) string {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return base
	}
	return u.Host
}
