package targets

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

func TestNewURLRejects(t *testing.T) {
	for _, base := range []string{
		"",
		"127.0.0.1:8080",
		"ftp://127.0.0.1/",
		"http://example.com:8080",
		"http://10.0.0.1:8080",
		"http://127.0.0.1:8080/?q=1",
		"http://user:pw@127.0.0.1:8080",
		"http://127.0.0.1:8080/#frag",
	} {
		if _, err := NewURL(base); err == nil {
			t.Errorf("NewURL(%q) succeeded, want an error", base)
		}
	}
}

func TestURL(t *testing.T) {
	var health atomic.Int32
	health.Store(http.StatusOK)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/prefix/healthz" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(int(health.Load()))
	}))
	t.Cleanup(srv.Close)
	target, err := NewURL(srv.URL + "/prefix/")
	if err != nil {
		t.Fatalf("NewURL: %v", err)
	}
	if got, want := target.String(), "url "+srv.URL+"/prefix"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	inst, err := target.Start(t.Context(), Env{Listen: "ignored:1"})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	if got, want := inst.URL(), srv.URL+"/prefix"; got != want {
		t.Errorf("URL() = %q, want %q", got, want)
	}
	if err := inst.Alive(t.Context()); err != nil {
		t.Errorf("Alive: %v", err)
	}
	if err := inst.Stop(t.Context()); err != nil {
		t.Errorf("Stop: %v", err)
	}
	if err := inst.Alive(t.Context()); !errors.Is(err, ErrStopped) {
		t.Errorf("Alive after Stop: %v, want ErrStopped", err)
	}
	health.Store(http.StatusServiceUnavailable)
	slow, err := NewURL(srv.URL+"/prefix", WithReadyTimeout(150*time.Millisecond))
	if err != nil {
		t.Fatalf("NewURL: %v", err)
	}
	if _, err := slow.Start(t.Context(), Env{}); !errors.Is(err, ErrNotReady) {
		t.Errorf("Start with an unhealthy adapter: %v, want ErrNotReady", err)
	}
}
