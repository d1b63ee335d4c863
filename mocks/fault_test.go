package mocks_test

import (
	"errors"
	"io"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/toolcert/toolcert/mocks"
)

func TestRawResponses(t *testing.T) {
	body := []byte("0123456789")
	tests := []struct {
		name    string
		resp    mocks.Response
		want    string
		wantErr error // of the client's read
		served  mocks.Served
	}{
		{
			name:   "zero value is 200 OK empty, because a test can omit everything",
			want:   "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
			served: mocks.Served{Status: 200, BodySHA256: sum(nil), IntendedSHA256: sum(nil)},
		},
		{
			name:   "any reason phrase bytes, because the agent must never see them",
			resp:   mocks.Response{Status: 200, Reason: "Fine \xff\x00 <script>", Body: body},
			want:   "HTTP/1.1 200 Fine \xff\x00 <script>\r\nContent-Length: 10\r\nConnection: close\r\n\r\n0123456789",
			served: mocks.Served{Status: 200, BodyBytes: 10, BodySHA256: sum(body), IntendedSHA256: sum(body)},
		},
		{
			name:   "unknown status has an empty default reason",
			resp:   mocks.Response{Status: 299},
			want:   "HTTP/1.1 299 \r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
			served: mocks.Served{Status: 299, BodySHA256: sum(nil), IntendedSHA256: sum(nil)},
		},
		{
			name:   "headers keep order and duplicates",
			resp:   mocks.Response{Header: []mocks.HeaderField{{"X-A", "1"}, {"Content-Type", "application/json"}, {"X-A", "2"}}},
			want:   "HTTP/1.1 200 OK\r\nX-A: 1\r\nContent-Type: application/json\r\nX-A: 2\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
			served: mocks.Served{Status: 200, BodySHA256: sum(nil), IntendedSHA256: sum(nil)},
		},
		{
			name:   "a programmed Content-Length may lie",
			resp:   mocks.Response{Header: []mocks.HeaderField{{"Content-Length", "100"}}, Body: body},
			want:   "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\n0123456789",
			served: mocks.Served{Status: 200, BodyBytes: 10, BodySHA256: sum(body), IntendedSHA256: sum(body)},
		},
		{
			name:   "programmed Connection replaces the automatic one",
			resp:   mocks.Response{Header: []mocks.HeaderField{{"Connection", "keep-alive"}}},
			want:   "HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n",
			served: mocks.Served{Status: 200, BodySHA256: sum(nil), IntendedSHA256: sum(nil)},
		},
		{
			name:   "close-delimited body",
			resp:   mocks.Response{Body: body, OmitContentLength: true},
			want:   "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n0123456789",
			served: mocks.Served{Status: 200, BodyBytes: 10, BodySHA256: sum(body), IntendedSHA256: sum(body)},
		},
		{
			name:   "truncated keeps the full Content-Length",
			resp:   mocks.Response{Body: body, Fault: mocks.Fault{TruncateAfter: 4}},
			want:   "HTTP/1.1 200 OK\r\nContent-Length: 10\r\nConnection: close\r\n\r\n0123",
			served: mocks.Served{Status: 200, BodyBytes: 4, BodySHA256: sum(body[:4]), IntendedSHA256: sum(body), Fault: mocks.FaultTruncated},
		},
		{
			name:   "empty closes without a byte",
			resp:   mocks.Response{Body: body, Fault: mocks.Fault{Empty: true}},
			want:   "",
			served: mocks.Served{BodySHA256: sum(nil), IntendedSHA256: sum(body), Fault: mocks.FaultEmpty},
		},
		{
			name:    "reset sends RST",
			resp:    mocks.Response{Body: body, Fault: mocks.Fault{Reset: true}},
			want:    "",
			wantErr: syscall.ECONNRESET,
			served:  mocks.Served{BodySHA256: sum(nil), IntendedSHA256: sum(body), Fault: mocks.FaultReset},
		},
		{
			name:   "delayed then whole",
			resp:   mocks.Response{Body: body, Fault: mocks.Fault{DelayHeaders: time.Millisecond}},
			want:   "HTTP/1.1 200 OK\r\nContent-Length: 10\r\nConnection: close\r\n\r\n0123456789",
			served: mocks.Served{Status: 200, BodyBytes: 10, BodySHA256: sum(body), IntendedSHA256: sum(body), Fault: mocks.FaultDelayed},
		},
		{
			name:   "dribbled then whole",
			resp:   mocks.Response{Body: body, Fault: mocks.Fault{DribbleChunk: 3, DribbleEvery: time.Millisecond}},
			want:   "HTTP/1.1 200 OK\r\nContent-Length: 10\r\nConnection: close\r\n\r\n0123456789",
			served: mocks.Served{Status: 200, BodyBytes: 10, BodySHA256: sum(body), IntendedSHA256: sum(body), Fault: mocks.FaultDribbled},
		},
		{
			name:   "dribbled and truncated",
			resp:   mocks.Response{Body: body, Fault: mocks.Fault{DribbleChunk: 4, TruncateAfter: 6}},
			want:   "HTTP/1.1 200 OK\r\nContent-Length: 10\r\nConnection: close\r\n\r\n012345",
			served: mocks.Served{Status: 200, BodyBytes: 6, BodySHA256: sum(body[:6]), IntendedSHA256: sum(body), Fault: mocks.FaultTruncated},
		},
	}
	u := newUpstream(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u.Reset()
			program(t, u, "GET", "/r", tt.resp)
			got, err := rawExchange(t, u, getReq)
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) || tt.wantErr == nil && err != nil {
				t.Errorf("read error = %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("raw response (-want +got):\n%s", diff)
			}
			settle(t, u)
			tt.served.Complete = true
			if diff := cmp.Diff(tt.served, u.Journal()[0].Served, cmpopts.IgnoreFields(mocks.Served{}, "Err")); diff != "" {
				t.Errorf("Served (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFaultsSeenByHTTPClient(t *testing.T) {
	u := newUpstream(t)
	body := []byte(`{"change_id":"CR-1"}`)

	program(t, u, "GET", "/reason", mocks.Response{Status: 503, Reason: "Vendor Says Hi", Body: body})
	resp, _, err := get(t, u, "/reason")
	if err != nil {
		t.Fatalf("get /reason: %v", err)
	}
	if resp.Status != "503 Vendor Says Hi" {
		t.Errorf("status line = %q, want %q", resp.Status, "503 Vendor Says Hi")
	}

	program(t, u, "GET", "/truncated", mocks.JSON(200, body).WithFault(mocks.Fault{TruncateAfter: 5}))
	if _, _, err := get(t, u, "/truncated"); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("truncated body read error = %v, want io.ErrUnexpectedEOF", err)
	}

	program(t, u, "GET", "/empty", mocks.JSON(200, body).WithFault(mocks.Fault{Empty: true}))
	if _, _, err := get(t, u, "/empty"); !errors.Is(err, io.EOF) {
		t.Errorf("empty response error = %v, want io.EOF", err)
	}

	program(t, u, "GET", "/reset", mocks.JSON(200, body).WithFault(mocks.Fault{Reset: true}))
	if _, _, err := get(t, u, "/reset"); !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("reset response error = %v, want ECONNRESET", err)
	}

	program(t, u, "GET", "/unframed", mocks.JSON(200, body).WithHeader("Content-Length", "100"))
	if _, got, err := get(t, u, "/unframed"); !errors.Is(err, io.ErrUnexpectedEOF) || string(got) != string(body) {
		t.Errorf("lying Content-Length: body %q, error %v; want %q, io.ErrUnexpectedEOF", got, err, body)
	}
}

func TestDribbleClientDisconnects(t *testing.T) {
	u := newUpstream(t)
	program(t, u, "GET", "/r", mocks.Text(200, "0123456789").WithFault(mocks.Fault{DribbleChunk: 1, DribbleEvery: time.Hour}))
	conn := dial(t, u)
	if _, err := io.WriteString(conn, getReq); err != nil {
		t.Fatalf("write request: %v", err)
	}
	want := "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 10\r\nConnection: close\r\n\r\n0"
	buf := make([]byte, len(want))
	if _, err := io.ReadFull(conn, buf); err != nil || string(buf) != want {
		t.Fatalf("read head and first byte: %q, %v; want %q", buf, err, want)
	}
	_ = conn.Close()
	settle(t, u)
	got := u.Journal()[0].Served
	if got.Fault != mocks.FaultClientGone || got.BodyBytes != 1 {
		t.Errorf("Served = %+v, want fault %q after 1 body byte", got, mocks.FaultClientGone)
	}
}

func TestDelayClientGone(t *testing.T) {
	u := newUpstream(t)
	program(t, u, "GET", "/r", mocks.Response{Fault: mocks.Fault{DelayHeaders: time.Hour}})
	conn := dial(t, u)
	if _, err := io.WriteString(conn, getReq); err != nil {
		t.Fatalf("write request: %v", err)
	}
	waitEntries(t, u, 1)
	_ = conn.Close()
	settle(t, u)
	if got := u.Journal()[0].Served; got.Fault != mocks.FaultClientGone || got.Status != 0 {
		t.Errorf("Served = %+v, want fault %q and nothing written", got, mocks.FaultClientGone)
	}
}

func TestResetWakesDelayedHandler(t *testing.T) {
	u := newUpstream(t)
	program(t, u, "GET", "/r", mocks.Response{Fault: mocks.Fault{DelayHeaders: time.Hour}})
	conn := dial(t, u)
	if _, err := io.WriteString(conn, getReq); err != nil {
		t.Fatalf("write request: %v", err)
	}
	waitEntries(t, u, 1)
	u.Reset()
	got, err := io.ReadAll(conn)
	if err != nil || len(got) != 0 {
		t.Errorf("after Reset the client read %q, %v; want a close without bytes", got, err)
	}
	settle(t, u)
	if j := u.Journal(); len(j) != 0 {
		t.Errorf("journal after Reset = %+v, want empty", j)
	}
}

func TestCloseWithHandlersInFlight(t *testing.T) {
	u, err := mocks.NewUpstream()
	if err != nil {
		t.Fatalf("NewUpstream: %v", err)
	}
	program(t, u, "GET", "/delay", mocks.Response{Fault: mocks.Fault{DelayHeaders: time.Hour}})
	program(t, u, "GET", "/dribble", mocks.Text(200, "0123456789").WithFault(mocks.Fault{DribbleChunk: 1, DribbleEvery: time.Hour}))
	program(t, u, "GET", "/big", mocks.Generated(1<<30))
	var conns []io.Reader
	for _, path := range []string{"/delay", "/dribble", "/big"} {
		conn := dial(t, u)
		if _, err := io.WriteString(conn, "GET "+path+" HTTP/1.1\r\nHost: mock\r\n\r\n"); err != nil {
			t.Fatalf("write request: %v", err)
		}
		conns = append(conns, conn)
	}
	waitEntries(t, u, 3)
	if err := u.Close(); err != nil {
		t.Fatalf("Close with handlers in flight: %v", err)
	}
	for i, conn := range conns {
		if _, err := io.Copy(io.Discard, conn); err != nil && !errors.Is(err, syscall.ECONNRESET) {
			t.Errorf("connection %d after Close: %v, want it closed", i, err)
		}
	}
	if _, err := http.Get(u.URL() + "/delay"); err == nil {
		t.Errorf("request after Close succeeded, want connection refused")
	}
}
