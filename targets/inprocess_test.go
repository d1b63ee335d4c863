package targets

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// countingCloser counts Close calls.
type countingCloser struct{ n atomic.Int32 }

func (c *countingCloser) Close() error {
	c.n.Add(1)
	return nil
}

// healthyBuild returns a build function serving /healthz and /listen (the
// env.Listen it was given), and the closer it hands out.
func healthyBuild(health int) (BuildFunc, *countingCloser) {
	closer := &countingCloser{}
	build := func(env Env) (http.Handler, io.Closer, error) {
		mux := http.NewServeMux()
		mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(health)
		})
		mux.HandleFunc("GET /listen", func(w http.ResponseWriter, _ *http.Request) {
			io.WriteString(w, env.Listen+" "+env.UpstreamURL)
		})
		return mux, closer, nil
	}
	return build, closer
}

func TestInProcessServesAndStops(t *testing.T) {
	build, closer := healthyBuild(http.StatusOK)
	target := NewInProcess("reference", build)
	if got, want := target.String(), "in-process reference"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	inst, err := target.Start(t.Context(), Env{UpstreamURL: "http://127.0.0.1:9"})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = inst.Stop(context.Background()) })
	if err := inst.Alive(t.Context()); err != nil {
		t.Errorf("Alive: %v", err)
	}
	client := &http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get(inst.URL() + "/listen")
	if err != nil {
		t.Fatalf("GET /listen: %v", err)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
	resp.Body.Close()
	if want := strings.TrimPrefix(inst.URL(), "http://") + " http://127.0.0.1:9"; string(body) != want {
		t.Errorf("build saw env %q, want %q", body, want)
	}
	if err := inst.Stop(t.Context()); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if err := inst.Stop(t.Context()); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	if n := closer.n.Load(); n != 1 {
		t.Errorf("closer closed %d times, want 1", n)
	}
	if err := inst.Alive(t.Context()); !errors.Is(err, ErrStopped) {
		t.Errorf("Alive after Stop: %v, want ErrStopped", err)
	}
	if resp, err := client.Get(inst.URL() + "/healthz"); err == nil {
		resp.Body.Close()
		t.Errorf("GET after Stop answered %s, want a connection error", resp.Status)
	}
}

func TestInProcessListen(t *testing.T) {
	addr, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	build, _ := healthyBuild(http.StatusOK)
	inst, err := NewInProcess("x", build).Start(t.Context(), Env{Listen: addr})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = inst.Stop(context.Background()) })
	if got, want := inst.URL(), "http://"+addr; got != want {
		t.Errorf("URL() = %q, want %q", got, want)
	}
}

func TestInProcessStartErrors(t *testing.T) {
	errBuild := errors.New("no schema")
	unhealthy, unhealthyCloser := healthyBuild(http.StatusServiceUnavailable)
	failing := func(Env) (http.Handler, io.Closer, error) { return nil, nil, errBuild }
	tests := []struct {
		name    string
		build   BuildFunc
		wantErr error
		closer  *countingCloser
	}{
		{name: "build fails", build: failing, wantErr: errBuild},
		{name: "no build", build: nil},
		{name: "never healthy", build: unhealthy, wantErr: ErrNotReady, closer: unhealthyCloser},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target := NewInProcess(tt.name, tt.build, WithReadyTimeout(200*time.Millisecond))
			inst, err := target.Start(t.Context(), Env{})
			if err == nil {
				_ = inst.Stop(context.Background())
				t.Fatal("Start succeeded, want an error")
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("Start: %v, want errors.Is %v", err, tt.wantErr)
			}
			if tt.closer != nil && tt.closer.n.Load() != 1 {
				t.Errorf("closer closed %d times, want 1", tt.closer.n.Load())
			}
		})
	}
}

func TestInProcessStopBounded(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	started := make(chan struct{}, 1)
	build := func(Env) (http.Handler, io.Closer, error) {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/healthz" {
				return
			}
			started <- struct{}{}
			<-release // a handler that never finishes on its own
		}), nil, nil
	}
	inst, err := NewInProcess("stuck", build).Start(t.Context(), Env{})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	go func() {
		client := &http.Client{Timeout: 10 * time.Second}
		if resp, err := client.Get(inst.URL() + "/stuck"); err == nil {
			resp.Body.Close()
		}
	}()
	<-started
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if err := inst.Stop(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Stop: %v, want the shutdown deadline reported", err)
	}
}
