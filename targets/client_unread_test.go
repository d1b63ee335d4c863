package targets

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
)

// closingServer reads the headers of each request, then closes the
// connection without reading the body and without answering, as an
// adapter that refuses an oversized body from its Content-Length and
// closes at once, its 400 lost to the reset.
func closingServer(tb testing.TB) string {
	tb.Helper()
	return connServer(tb, func(conn net.Conn) { _, _ = http.ReadRequest(bufio.NewReader(conn)) })
}

// TestClientNamesAnUnreadBody: a target that closes with most of a 16 MiB
// request body unread (more than loopback's socket buffers hold) fails the
// call with ErrConnection, and the error says the body was not read.
func TestClientNamesAnUnreadBody(t *testing.T) {
	base := closingServer(t)
	args := []byte(`{"s":"` + strings.Repeat("a", 16<<20) + `"}`)
	named := 0
	const calls = 5
	for range calls {
		_, err := NewClient().Invoke(t.Context(), base, "x", args, "")
		if !errors.Is(err, ErrConnection) {
			t.Fatalf("Invoke: %v, want ErrConnection", err)
		}
		var unread *unreadBodyError
		if errors.As(err, &unread) {
			named++
			if !strings.Contains(err.Error(), fmt.Sprintf("before it read the %d-byte request body", len(args)+len(`{"arguments":}`))) {
				t.Errorf("Invoke: %v, want the body's size named", err)
			}
		}
	}
	if named != calls {
		t.Errorf("%d of %d calls whose body was not read named it", named, calls)
	}
}

// TestClientDoesNotNameAnUnreadBodyWithoutAConnection: a call that never
// reached the target (nothing listens) failed to connect; it is not a
// body the target left unread.
func TestClientDoesNotNameAnUnreadBodyWithoutAConnection(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + l.Addr().String()
	l.Close()
	_, err = NewClient().Invoke(t.Context(), base, "x", []byte(`{"a":"b"}`), "")
	var unread *unreadBodyError
	if !errors.Is(err, ErrConnection) || errors.As(err, &unread) {
		t.Errorf("Invoke to a closed port: %v, want ErrConnection that names no unread body", err)
	}
}
