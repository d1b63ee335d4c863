package gate

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/protocol"
)

func TestFetcherPost(t *testing.T) {
	big := strings.Repeat("x", 101)
	tests := []struct {
		name       string
		handler    func(n int64, w http.ResponseWriter, r *http.Request)
		wantReason string
		wantStatus int
		wantRaw    string
	}{
		{name: "200", handler: status(200, `{"id":"m-1"}`), wantStatus: 200, wantRaw: `{"id":"m-1"}`},
		{name: "202 is success", handler: status(202, ``), wantStatus: 202},
		{name: "204 is success", handler: status(204, ``), wantStatus: 204},
		{name: "503 not retried", handler: status(503, `down`), wantReason: protocol.ReasonStatus5xx, wantStatus: 503, wantRaw: "down"},
		{name: "429 not retried", handler: status(429, ``), wantReason: protocol.ReasonStatus429, wantStatus: 429},
		{name: "404", handler: status(404, ``), wantReason: protocol.ReasonStatus404, wantStatus: 404},
		{name: "409", handler: status(409, ``), wantReason: protocol.ReasonStatus4xx, wantStatus: 409},
		{name: "redirect not followed", handler: func(_ int64, w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Location", "/elsewhere")
			w.WriteHeader(http.StatusTemporaryRedirect)
		}, wantReason: protocol.ReasonUnexpectedStatus, wantStatus: 307},
		{name: "2xx body past the limit keeps the status", handler: status(201, big+big), wantReason: protocol.ReasonByteLimit, wantStatus: 201, wantRaw: big},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n atomic.Int64
			var gotBody, gotKey, gotMethod atomic.Value
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				gotBody.Store(string(b))
				gotKey.Store(r.Header.Get("Idempotency-Key"))
				gotMethod.Store(r.Method)
				tt.handler(n.Add(1), w, r)
			}))
			t.Cleanup(srv.Close)
			f := newTestFetcher(t, WithMaxBytes(100))
			got, err := f.Post(context.Background(), srv.URL+"/emails", []byte(`{"to":"a@example.com"}`),
				http.Header{"Idempotency-Key": {"apr.1"}, "Content-Type": {"application/json"}})
			if diff := cmp.Diff(tt.wantReason, reasonOf(t, err, protocol.GateTransport)); diff != "" {
				t.Fatalf("reason (-want +got):\n%s\nerr: %v", diff, err)
			}
			want := Fetched{URL: srv.URL + "/emails", Method: "POST", Status: tt.wantStatus, Raw: []byte(tt.wantRaw), Attempts: 1}
			got.Header = nil
			if diff := cmp.Diff(want, got, cmp.Comparer(bytesEqual)); diff != "" {
				t.Errorf("Fetched (-want +got):\n%s", diff)
			}
			if n.Load() != 1 {
				t.Errorf("upstream saw %d requests, want 1", n.Load())
			}
			if gotMethod.Load() != "POST" || gotBody.Load() != `{"to":"a@example.com"}` || gotKey.Load() != "apr.1" {
				t.Errorf("upstream got %v %q with key %q", gotMethod.Load(), gotBody.Load(), gotKey.Load())
			}
		})
	}
}

func TestFetcherPostFaults(t *testing.T) {
	tests := []struct {
		name       string
		handle     func(c net.Conn)
		wantReason string
	}{
		{"closed before answering", func(c net.Conn) { readRequest(c) }, protocol.ReasonConnection},
		{"silent", func(c net.Conn) {
			readRequest(c)
			io.Copy(io.Discard, c) // until the fetcher gives up and closes
		}, protocol.ReasonTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n atomic.Int64
			addr := rawServer(t, func(c net.Conn) {
				n.Add(1)
				tt.handle(c)
			})
			f := newTestFetcher(t, WithReadTimeout(50*time.Millisecond), WithDeadline(5*time.Second))
			got, err := f.Post(context.Background(), "http://"+addr+"/emails", []byte(`{}`), nil)
			if diff := cmp.Diff(tt.wantReason, reasonOf(t, err, protocol.GateTransport)); diff != "" {
				t.Errorf("reason (-want +got):\n%s\nerr: %v", diff, err)
			}
			if got.Attempts != 1 || n.Load() != 1 {
				t.Errorf("attempts %d, connections %d; want 1 and 1", got.Attempts, n.Load())
			}
		})
	}
}
