package mocks_test

import (
	"bufio"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/toolcert/toolcert/mocks"
)

// TestWholeAnswerWaitsForTheClientToClose: after a whole, self-delimited
// answer the mock leaves the close to the client (so the client, not the
// mock, keeps the TIME_WAIT), and closes itself only after a bound; an
// answer the mock cuts short is closed at once.
func TestWholeAnswerWaitsForTheClientToClose(t *testing.T) {
	u := newUpstream(t)
	program(t, u, http.MethodGet, "/whole", mocks.Response{Body: []byte(`{"a":1}`)})
	program(t, u, http.MethodGet, "/cut", mocks.Response{Body: []byte(`{"a":1}`), Fault: mocks.Fault{TruncateAfter: 3}})

	// A client that reads the answer and stays: the mock closes after its
	// bound, not at once.
	conn := dial(t, u)
	if _, err := io.WriteString(conn, "GET /whole HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(resp.Body); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("after the answer: %v, want EOF once the mock closes", err)
	}
	if waited := time.Since(start); waited < 100*time.Millisecond {
		t.Errorf("the mock closed %v after a whole answer: it must leave the close to the client first", waited)
	}

	// A client that closes at once: the mock is done at once too.
	conn = dial(t, u)
	if _, err := io.WriteString(conn, "GET /whole HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := http.ReadResponse(bufio.NewReader(conn), nil); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	conn.Close()
	settle(t, u)
	if waited := time.Since(start); waited > 200*time.Millisecond {
		t.Errorf("the mock settled %v after the client closed, want at once", waited)
	}

	// An answer cut short: the mock closes at once, which is the fault.
	conn = dial(t, u)
	if _, err := io.WriteString(conn, "GET /cut HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	if _, err := io.ReadAll(conn); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited > 200*time.Millisecond {
		t.Errorf("a cut answer was closed after %v, want at once", waited)
	}
}

func TestConnectionsCountsWhatReachedTheMock(t *testing.T) {
	u := newUpstream(t)
	if n := u.Connections(); n != 0 {
		t.Fatalf("Connections = %d before any, want 0", n)
	}
	conn := dial(t, u) // a connection that sends no request
	deadline := time.Now().Add(5 * time.Second)
	for u.Connections() != 1 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := u.Connections(); n != 1 || u.Received() != 0 {
		t.Errorf("Connections = %d, Received = %d, want 1 and 0", n, u.Received())
	}
	conn.Close()
	u.Reset()
	if n := u.Connections(); n != 0 {
		t.Errorf("Connections = %d after Reset, want 0", n)
	}
}
