package mocks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Timeouts bounding what a peer can make the mock wait for.
const (
	readHeaderTimeout = 10 * time.Second // request line and headers
	readBodyTimeout   = 10 * time.Second // the whole request body
	writeTimeout      = 10 * time.Second // each write of the response
	closeWait         = 2 * time.Second  // Close waiting for handlers
)

// Upstream is a programmable mock upstream listening on loopback. Create it
// with NewUpstream; it is safe for concurrent use.
type Upstream struct {
	cfg    config
	url    string
	srv    *http.Server
	served chan struct{} // closed when the server's Serve returns

	root     context.Context // canceled by Close
	stopRoot context.CancelFunc

	mu        sync.Mutex
	gen       context.Context // canceled by Reset and Close
	cancelGen context.CancelFunc
	routes    map[string]*sequence
	side      []SideRoute // outlive Reset
	fallback  *sequence
	journal   []*Entry
	bodyBytes int64 // request body bytes kept in the journal
	seq       int   // requests received since the last Reset, journaled or not
	sideSeq   int   // those of them a side route answered
	closed    bool

	flight inflight
	sums   sumCache
	// conns counts the connections accepted since the last Reset.
	conns atomic.Int64
}

// NewUpstream starts a mock upstream on 127.0.0.1 and a free port, or on
// the address given by WithAddr. The caller must call Close when finished.
func NewUpstream(opts ...Option) (*Upstream, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, fmt.Errorf("start mock upstream: %w", err)
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return nil, fmt.Errorf("start mock upstream: %w", err)
	}
	if err := checkLoopback(ln.Addr().String()); err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("start mock upstream: %w", err)
	}
	u := &Upstream{cfg: cfg, url: "http://" + ln.Addr().String(), served: make(chan struct{})}
	u.root, u.stopRoot = context.WithCancel(context.Background())
	u.gen, u.cancelGen = context.WithCancel(u.root)
	u.routes = map[string]*sequence{}
	u.srv = &http.Server{
		Handler:           http.HandlerFunc(u.handle),
		ReadHeaderTimeout: readHeaderTimeout,
		ErrorLog:          log.New(io.Discard, "", 0),
		ConnState: func(_ net.Conn, s http.ConnState) {
			if s == http.StateNew {
				u.conns.Add(1)
			}
		},
	}
	go func() {
		defer close(u.served)
		_ = u.srv.Serve(ln)
	}()
	return u, nil
}

// URL returns the base URL of the mock, "http://127.0.0.1:<port>", without
// a trailing slash.
func (u *Upstream) URL() string {
	return u.url
}

// Reset forgets the program, the fallback and the journal, and stops every
// response still in flight (delays wake, dribbles end, connections close);
// the side routes stay. Call it before every scenario.
func (u *Upstream) Reset() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.cancelGen()
	u.gen, u.cancelGen = context.WithCancel(u.root)
	u.routes = map[string]*sequence{}
	u.fallback = nil
	u.journal = nil
	u.bodyBytes = 0
	u.seq, u.sideSeq = 0, 0
	u.conns.Store(0)
}

// Connections returns how many connections the mock accepted since the
// last Reset, a whole request on them or not: when the journal is empty,
// it tells an adapter that never connected from one whose connection sent
// no request.
func (u *Upstream) Connections() int { return int(u.conns.Load()) }

// Close stops the listener, closes every connection and waits, at most two
// seconds, for the handlers in flight. It returns an error wrapping
// context.DeadlineExceeded if some are still running then. Calling Close
// again returns nil.
func (u *Upstream) Close() error {
	u.mu.Lock()
	if u.closed {
		u.mu.Unlock()
		return nil
	}
	u.closed = true
	u.mu.Unlock()
	u.stopRoot()
	err := u.srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), closeWait)
	defer cancel()
	if werr := u.flight.wait(ctx); werr != nil {
		return fmt.Errorf("close mock upstream: %d handlers still running: %w", u.flight.count(), werr)
	}
	select {
	case <-u.served:
	case <-ctx.Done():
		return fmt.Errorf("close mock upstream: server still running: %w", ctx.Err())
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("close mock upstream: %w", err)
	}
	return nil
}

// Settle waits until every request the mock has started handling has its
// response finished and Entry.Served recorded, or until ctx ends, and then
// returns ctx's error. A target may read the last response byte before the
// mock records it: call Settle after the target answered and before
// reading Journal or Requests. Give ctx a deadline: a request whose client
// neither reads nor leaves keeps a handler busy up to the write timeout.
// A connection whose request the mock has not read yet is not waited for.
func (u *Upstream) Settle(ctx context.Context) error {
	if err := u.flight.wait(ctx); err != nil {
		return fmt.Errorf("settle mock upstream: %w", err)
	}
	return nil
}
