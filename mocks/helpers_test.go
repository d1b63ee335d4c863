package mocks_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toolcert/toolcert/mocks"
)

// newUpstream starts a mock upstream closed at the end of the test.
func newUpstream(tb testing.TB, opts ...mocks.Option) *mocks.Upstream {
	tb.Helper()
	u, err := mocks.NewUpstream(opts...)
	if err != nil {
		tb.Fatalf("NewUpstream: %v", err)
	}
	tb.Cleanup(func() {
		if err := u.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return u
}

// program programs a route or fails the test.
func program(tb testing.TB, u *mocks.Upstream, method, path string, seq ...mocks.Response) {
	tb.Helper()
	if err := u.Program(method, path, seq...); err != nil {
		tb.Fatalf("Program: %v", err)
	}
}

// settle waits, at most 5 s, for the mock to record every response.
func settle(tb testing.TB, u *mocks.Upstream) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := u.Settle(ctx); err != nil {
		tb.Fatalf("Settle: %v", err)
	}
}

// dial opens a raw connection to u with a 10 s deadline, closed at the end
// of the test.
func dial(tb testing.TB, u *mocks.Upstream) net.Conn {
	tb.Helper()
	conn, err := net.DialTimeout("tcp", strings.TrimPrefix(u.URL(), "http://"), 5*time.Second)
	if err != nil {
		tb.Fatalf("dial: %v", err)
	}
	tb.Cleanup(func() { _ = conn.Close() })
	if err := conn.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		tb.Fatalf("set deadline: %v", err)
	}
	return conn
}

// rawExchange sends request on a new connection and returns every byte
// read until the mock closes it, with the read error.
func rawExchange(tb testing.TB, u *mocks.Upstream, request string) ([]byte, error) {
	tb.Helper()
	conn := dial(tb, u)
	if _, err := io.WriteString(conn, request); err != nil {
		tb.Fatalf("write request: %v", err)
	}
	return io.ReadAll(io.LimitReader(conn, 16<<20))
}

// get sends a request for path with a fresh client and returns the
// response and its body read to the end (with the body's read error).
func get(tb testing.TB, u *mocks.Upstream, path string) (*http.Response, []byte, error) {
	tb.Helper()
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := c.Get(u.URL() + path)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, body, err
}

// waitEntries polls, at most 5 s, until the journal holds n entries.
func waitEntries(tb testing.TB, u *mocks.Upstream, n int) {
	tb.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		if len(u.Journal()) >= n {
			return
		}
		time.Sleep(time.Millisecond)
	}
	tb.Fatalf("journal never reached %d entries", n)
}

// sum returns the hex SHA-256 of b.
func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

const getReq = "GET /r HTTP/1.1\r\nHost: mock\r\n\r\n"
