package gate

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/protocol"
)

func TestFetcherGet(t *testing.T) {
	big := strings.Repeat("x", 101)
	tests := []struct {
		name         string
		handler      func(n int64, w http.ResponseWriter, r *http.Request) // n counts requests from 1
		wantReason   string
		wantStatus   int
		wantRaw      string
		wantAttempts int
	}{
		{name: "ok", handler: status(200, `{"a":1}`), wantStatus: 200, wantRaw: `{"a":1}`, wantAttempts: 1},
		{name: "404 not retried", handler: status(404, `nope`), wantReason: protocol.ReasonStatus404, wantStatus: 404, wantRaw: "nope", wantAttempts: 1},
		{name: "400 not retried", handler: status(400, ``), wantReason: protocol.ReasonStatus4xx, wantStatus: 400, wantAttempts: 1},
		{name: "503 retried to the limit", handler: status(503, `down`), wantReason: protocol.ReasonStatus5xx, wantStatus: 503, wantRaw: "down", wantAttempts: 3},
		{name: "429 retried to the limit", handler: status(429, ``), wantReason: protocol.ReasonStatus429, wantStatus: 429, wantAttempts: 3},
		{name: "503 then 200", handler: func(n int64, w http.ResponseWriter, r *http.Request) {
			if n == 1 {
				w.WriteHeader(503)
				return
			}
			io.WriteString(w, "{}")
		}, wantStatus: 200, wantRaw: "{}", wantAttempts: 2},
		{name: "201 unexpected", handler: status(201, `{}`), wantReason: protocol.ReasonUnexpectedStatus, wantStatus: 201, wantRaw: "{}", wantAttempts: 1},
		{name: "redirect not followed", handler: func(n int64, w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/start" {
				panic("redirect followed")
			}
			w.Header().Set("Location", "/elsewhere")
			w.WriteHeader(http.StatusFound)
		}, wantReason: protocol.ReasonUnexpectedStatus, wantStatus: 302, wantAttempts: 1},
		{name: "body at the limit", handler: status(200, big[:100]), wantStatus: 200, wantRaw: big[:100], wantAttempts: 1},
		{name: "body one byte past the limit", handler: status(200, big), wantReason: protocol.ReasonByteLimit, wantStatus: 200, wantRaw: big, wantAttempts: 1},
		{name: "oversized 503 page still retried", handler: status(503, big+big), wantReason: protocol.ReasonStatus5xx, wantStatus: 503, wantRaw: big, wantAttempts: 3},
		{name: "oversized 404 page is not found", handler: status(404, big+big), wantReason: protocol.ReasonStatus404, wantStatus: 404, wantRaw: big, wantAttempts: 1},
		{name: "large body stops at limit plus one", handler: status(200, big+big), wantReason: protocol.ReasonByteLimit, wantStatus: 200, wantRaw: big, wantAttempts: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				tt.handler(n.Add(1), w, r)
			}))
			t.Cleanup(srv.Close)
			f := newTestFetcher(t, WithMaxBytes(100))
			got, err := f.Get(context.Background(), srv.URL+"/start")
			if diff := cmp.Diff(tt.wantReason, reasonOf(t, err, protocol.GateTransport)); diff != "" {
				t.Fatalf("reason (-want +got):\n%s\nerr: %v", diff, err)
			}
			want := Fetched{URL: srv.URL + "/start", Method: "GET", Status: tt.wantStatus, Raw: []byte(tt.wantRaw), Attempts: tt.wantAttempts}
			got.Header = nil
			if diff := cmp.Diff(want, got, cmp.Comparer(bytesEqual)); diff != "" {
				t.Errorf("Fetched (-want +got):\n%s", diff)
			}
			if n.Load() != int64(tt.wantAttempts) {
				t.Errorf("upstream saw %d requests, want %d", n.Load(), tt.wantAttempts)
			}
		})
	}
}

func TestFetcherFaults(t *testing.T) {
	tests := []struct {
		name         string
		conn         func(c net.Conn)
		opts         []FetchOption
		wantReason   string
		wantRaw      string
		wantAttempts int
	}{
		{name: "reset", conn: func(c net.Conn) {
			readRequest(c)
			c.(*net.TCPConn).SetLinger(0)
		}, wantReason: protocol.ReasonConnection, wantAttempts: 3},
		{name: "closed before answering", conn: readRequest, wantReason: protocol.ReasonConnection, wantAttempts: 3},
		{name: "closed early in the body", conn: func(c net.Conn) {
			readRequest(c)
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":")
		}, wantReason: protocol.ReasonConnection, wantRaw: `{"a":`, wantAttempts: 3},
		{name: "silent before the header", conn: func(c net.Conn) {
			readRequest(c)
			c.Read(make([]byte, 1)) // until the client gives up
		}, opts: []FetchOption{WithReadTimeout(50 * time.Millisecond)}, wantReason: protocol.ReasonTimeout, wantAttempts: 3},
		{name: "silent in the body", conn: func(c net.Conn) {
			readRequest(c)
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
			c.Read(make([]byte, 1))
		}, opts: []FetchOption{WithReadTimeout(50 * time.Millisecond), WithMaxAttempts(1)}, wantReason: protocol.ReasonTimeout, wantRaw: "abc", wantAttempts: 1},
		{name: "dribbled body spends the deadline", conn: func(c net.Conn) {
			readRequest(c)
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")
			for range 1000 {
				if _, err := io.WriteString(c, "x"); err != nil {
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
		}, opts: []FetchOption{WithReadTimeout(time.Second), WithDeadline(150 * time.Millisecond)}, wantReason: protocol.ReasonDeadline, wantAttempts: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr := rawServer(t, tt.conn)
			f := newTestFetcher(t, tt.opts...)
			got, err := f.Get(context.Background(), "http://"+addr+"/x")
			if diff := cmp.Diff(tt.wantReason, reasonOf(t, err, protocol.GateTransport)); diff != "" {
				t.Fatalf("reason (-want +got):\n%s\nerr: %v", diff, err)
			}
			if got.Attempts != tt.wantAttempts {
				t.Errorf("Attempts = %d, want %d", got.Attempts, tt.wantAttempts)
			}
			if tt.wantRaw != "" && string(got.Raw) != tt.wantRaw {
				t.Errorf("Raw = %q, want %q", got.Raw, tt.wantRaw)
			}
			if tt.name == "dribbled body spends the deadline" && len(got.Raw) == 0 {
				t.Errorf("Raw is empty, want the bytes dribbled before the deadline")
			}
		})
	}
}

func TestFetcherConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	got, err := newTestFetcher(t).Get(context.Background(), "http://"+addr+"/")
	if reasonOf(t, err, protocol.GateTransport) != protocol.ReasonConnection || got.Attempts != 3 || got.Status != 0 {
		t.Errorf("Get = %+v, %v; want connection after 3 attempts", got, err)
	}
}

func TestFetcherBudgetSpentInBackoff(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(503)
	}))
	t.Cleanup(srv.Close)
	f := newTestFetcher(t, WithDeadline(time.Second), WithBackoff(time.Hour, time.Hour))
	got, err := f.Get(context.Background(), srv.URL)
	if reasonOf(t, err, protocol.GateTransport) != protocol.ReasonStatus5xx || got.Attempts != 1 {
		t.Errorf("Get = %+v, %v; want status_5xx after 1 attempt", got, err)
	}
}

func TestFetcherCallerCancels(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	ctx, cancel := context.WithCancel(context.Background())
	f := newTestFetcher(t, WithReadTimeout(time.Minute), WithDeadline(time.Minute))
	done := make(chan error, 1)
	go func() {
		_, err := f.Get(ctx, srv.URL)
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if reasonOf(t, err, protocol.GateTransport) != protocol.ReasonDeadline {
			t.Errorf("err = %v, want deadline", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Get did not return after the caller cancelled")
	}
}

// status returns a handler answering code and body.
func status(code int, body string) func(int64, http.ResponseWriter, *http.Request) {
	return func(_ int64, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

// newTestFetcher returns a fetcher with short backoff, closed at cleanup.
func newTestFetcher(tb testing.TB, opts ...FetchOption) *Fetcher {
	tb.Helper()
	f := NewFetcher(append([]FetchOption{WithBackoff(time.Millisecond, 2*time.Millisecond)}, opts...)...)
	tb.Cleanup(func() { f.Close() })
	return f
}

// rawServer serves every connection with handle on a loopback listener and
// closes each connection when handle returns. The listener closes, and the
// handlers are waited for, at cleanup.
func rawServer(tb testing.TB, handle func(c net.Conn)) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Go(func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				handle(c)
			})
		}
	})
	tb.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return ln.Addr().String()
}

// readRequest reads one request head from c.
func readRequest(c net.Conn) {
	r := bufio.NewReader(c)
	for {
		line, err := r.ReadString('\n')
		if err != nil || line == "\r\n" {
			return
		}
	}
}

// bytesEqual treats nil and empty as equal.
func bytesEqual(a, b []byte) bool { return string(a) == string(b) }
