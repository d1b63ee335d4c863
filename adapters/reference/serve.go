package reference

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"time"
)

// Serve builds the adapter for cfg, listens on cfg.Listen and serves until
// ctx is done, then shuts down and closes the adapter.
func Serve(ctx context.Context, cfg Config) error {
	a, err := New(cfg)
	if err != nil {
		return err
	}
	defer a.Close()
	return a.ListenAndServe(ctx)
}

// ListenAndServe listens on the configured address and serves until ctx is
// done.
func (a *Adapter) ListenAndServe(ctx context.Context) error {
	ln, err := net.Listen("tcp", a.Config().Listen)
	if err != nil {
		return fmt.Errorf("reference adapter: listen: %w", err)
	}
	return a.Serve(ctx, ln)
}

// Serve serves on ln until ctx is done; it then stops accepting, gives
// in-flight calls a grace period and closes ln. It does not close the
// adapter.
func (a *Adapter) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           a,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		IdleTimeout:       30 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), a.Config().Deadline+time.Second)
		defer cancel()
		if srv.Shutdown(shutdown) != nil {
			srv.Close()
		}
	}()
	err := srv.Serve(ln)
	stop()
	<-stopped
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return fmt.Errorf("reference adapter: serve: %w", err)
}
