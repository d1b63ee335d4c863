package targets

import (
	"bufio"
	"context"
	"errors"
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
	"github.com/google/go-cmp/cmp/cmpopts"
)

// seenRequest is what a test server saw of one request.
type seenRequest struct {
	Method, Path, Authorization, ContentType, Body string
}

// recordingServer answers every request with 200 {} and sends what it saw
// on the returned channel.
func recordingServer(tb testing.TB) (string, <-chan seenRequest) {
	tb.Helper()
	seen := make(chan seenRequest, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		seen <- seenRequest{r.Method, r.URL.EscapedPath(), r.Header.Get("Authorization"), r.Header.Get("Content-Type"), string(body)}
		io.WriteString(w, "{}")
	}))
	tb.Cleanup(srv.Close)
	return srv.URL, seen
}

// rawServer answers every connection with response, byte for byte, after
// reading the request head, then closes the connection.
func rawServer(tb testing.TB, response string) string {
	tb.Helper()
	return connServer(tb, func(conn net.Conn) {
		if req, err := http.ReadRequest(bufio.NewReader(conn)); err == nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(req.Body, 1<<20))
		}
		_, _ = io.WriteString(conn, response)
	})
}

// connServer serves each connection on loopback with serve, then closes
// it, until tb ends; it returns the server's URL.
func connServer(tb testing.TB, serve func(net.Conn)) string {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	var wg sync.WaitGroup
	tb.Cleanup(func() {
		l.Close()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
			serve(conn)
			conn.Close()
		}
	})
	return "http://" + l.Addr().String()
}

func TestClientRequests(t *testing.T) {
	base, seen := recordingServer(t)
	c := NewClient()
	tests := []struct {
		name string
		call func() (Output, error)
		want seenRequest
	}{
		{
			name: "invoke with token",
			call: func() (Output, error) {
				return c.Invoke(t.Context(), base+"/", "review_status", []byte(`{"change_id":"CR-1"}`), "t0k")
			},
			want: seenRequest{"POST", "/v1/tools/review_status/invoke", "Bearer t0k", "application/json", `{"arguments":{"change_id":"CR-1"}}`},
		},
		{
			name: "tool escaped, no token, nil arguments",
			call: func() (Output, error) { return c.Invoke(t.Context(), base, "a/b c", nil, "") },
			want: seenRequest{"POST", "/v1/tools/a%2Fb%20c/invoke", "", "application/json", `{"arguments":{}}`},
		},
		{
			name: "invalid arguments sent as given",
			call: func() (Output, error) { return c.Invoke(t.Context(), base, "x", []byte(`{"a":`), "") },
			want: seenRequest{"POST", "/v1/tools/x/invoke", "", "application/json", `{"arguments":{"a":}`},
		},
		{
			name: "approve",
			call: func() (Output, error) { return c.Approve(t.Context(), base, "ap/1", true, "t") },
			want: seenRequest{"POST", "/v1/approvals/ap%2F1", "Bearer t", "application/json", `{"approve":true}`},
		},
		{
			name: "deny",
			call: func() (Output, error) { return c.Approve(t.Context(), base, "ap1", false, "") },
			want: seenRequest{"POST", "/v1/approvals/ap1", "", "application/json", `{"approve":false}`},
		},
		{
			name: "raw post",
			call: func() (Output, error) { return c.Post(t.Context(), base, "/v1/tools/x/invoke", []byte("[1]"), "") },
			want: seenRequest{"POST", "/v1/tools/x/invoke", "", "application/json", "[1]"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := tt.call()
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			if out.StatusCode != http.StatusOK || string(out.Body) != "{}" {
				t.Errorf("Output = %d %q, want 200 {}", out.StatusCode, out.Body)
			}
			if diff := cmp.Diff(tt.want, <-seen); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
		})
	}
}

func TestClientRawResponses(t *testing.T) {
	ignore := cmpopts.IgnoreFields(Output{}, "Elapsed", "FirstByteAfter", "StatusAfter", "FirstBodyByteAfter", "LastByteAfter")
	tests := []struct {
		name     string
		reason   string
		response string
		want     Output
		wantErr  error
	}{
		{
			name:     "reason phrase",
			reason:   "the reason phrase is kept as sent; HTML and ANSI escapes are just bytes",
			response: "HTTP/1.1 200 Whatever Reason\r\nContent-Type: text/html\r\nContent-Length: 23\r\n\r\n<b>\x1b[31mred\x1b[0m</b>\r\n\x00\xff",
			want: Output{
				StatusLine: "HTTP/1.1 200 Whatever Reason",
				StatusCode: 200,
				Header:     http.Header{"Content-Type": {"text/html"}, "Content-Length": {"23"}},
				Body:       []byte("<b>\x1b[31mred\x1b[0m</b>\r\n\x00\xff"),
			},
		},
		{
			name:     "no reason",
			reason:   "a status line without a reason phrase",
			response: "HTTP/1.1 503\r\nContent-Length: 0\r\n\r\n",
			want:     Output{StatusLine: "HTTP/1.1 503", StatusCode: 503, Header: http.Header{"Content-Length": {"0"}}},
		},
		{
			name:     "crash mid-body",
			reason:   "the connection closes before Content-Length bytes: an error with what was read",
			response: "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial",
			want: Output{
				StatusLine: "HTTP/1.1 200 OK",
				StatusCode: 200,
				Header:     http.Header{"Content-Length": {"100"}},
				Body:       []byte("partial"),
			},
			wantErr: ErrConnection,
		},
		{
			name:     "trailer",
			reason:   "trailers are agent-visible too",
			response: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Leak\r\n\r\n2\r\nhi\r\n0\r\nX-Leak: secret\r\n\r\n",
			want: Output{
				StatusLine: "HTTP/1.1 200 OK",
				StatusCode: 200,
				Header:     http.Header{},
				Trailer:    http.Header{"X-Leak": {"secret"}},
				Body:       []byte("hi"),
			},
		},
		{
			name:     "crash before status",
			reason:   "the connection closes without a response",
			response: "",
			wantErr:  ErrConnection,
		},
		{
			name:     "not HTTP",
			reason:   "garbage instead of a status line",
			response: "SSH-2.0-OpenSSH\r\n\r\n",
			wantErr:  ErrConnection,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := rawServer(t, tt.response)
			got, err := NewClient().Invoke(t.Context(), base, "x", nil, "")
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("Invoke: %v, want errors.Is %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got, ignore, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Output: %s (-want +got):\n%s", tt.reason, diff)
			}
		})
	}
}

func TestClientTruncates(t *testing.T) {
	const limit = 8
	tests := []struct {
		name          string
		body          string
		wantBody      string
		wantTruncated bool
	}{
		{"under", "1234567", "1234567", false},
		{"at the limit", "12345678", "12345678", false},
		{"one past", "123456789", "12345678", true},
		{"far past", strings.Repeat("x", 1<<20), "xxxxxxxx", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				io.WriteString(w, tt.body)
			}))
			t.Cleanup(srv.Close)
			out, err := NewClient(WithMaxBody(limit)).Invoke(t.Context(), srv.URL, "x", nil, "")
			if err != nil {
				t.Fatalf("Invoke: %v", err)
			}
			if string(out.Body) != tt.wantBody || out.Truncated != tt.wantTruncated {
				t.Errorf("Body, Truncated = %q, %t; want %q, %t", out.Body, out.Truncated, tt.wantBody, tt.wantTruncated)
			}
		})
	}
}

func TestClientEndlessBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		chunk := []byte(strings.Repeat("A", 32<<10))
		for range 1 << 15 { // at most 1 GiB, until the client goes away
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	out, err := NewClient(WithMaxBody(1024), WithTimeout(10*time.Second)).Invoke(t.Context(), srv.URL, "x", nil, "")
	if err != nil {
		t.Fatalf("Invoke: %v", err)
	}
	if len(out.Body) != 1024 || !out.Truncated {
		t.Errorf("got %d bytes, Truncated %t; want 1024, true", len(out.Body), out.Truncated)
	}
}

func TestClientTimeout(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
	}{
		{"no headers", func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body) // then the server notices the client leaving
			<-r.Context().Done()
		}},
		{"body never ends", func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			io.WriteString(w, "{")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			t.Cleanup(srv.Close)
			_, err := NewClient(WithTimeout(200*time.Millisecond)).Invoke(t.Context(), srv.URL, "x", nil, "")
			if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Invoke: %v, want ErrTimeout and context.DeadlineExceeded", err)
			}
			if errors.Is(err, ErrConnection) {
				t.Errorf("Invoke: %v, want no ErrConnection", err)
			}
		})
	}
}

func TestClientCanceled(t *testing.T) {
	base, _ := recordingServer(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := NewClient().Invoke(ctx, base, "x", nil, "")
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrTimeout) {
		t.Errorf("Invoke: %v, want context.Canceled and no ErrTimeout", err)
	}
}

func TestClientConnectionRefused(t *testing.T) {
	addr, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	out, err := NewClient().Invoke(t.Context(), "http://"+addr, "x", nil, "")
	if !errors.Is(err, ErrConnection) {
		t.Errorf("Invoke: %v, want ErrConnection", err)
	}
	if out.StatusCode != 0 {
		t.Errorf("StatusCode = %d, want 0", out.StatusCode)
	}
}

func TestClientNoRedirect(t *testing.T) {
	var landed atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/landed", func(http.ResponseWriter, *http.Request) { landed.Add(1) })
	mux.HandleFunc("/v1/tools/x/invoke", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/landed", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	for name, c := range map[string]*Client{
		"default":     NewClient(),
		"http client": NewClient(WithHTTPClient(&http.Client{})),
	} {
		out, err := c.Invoke(t.Context(), srv.URL, "x", nil, "")
		if err != nil {
			t.Fatalf("%s: Invoke: %v", name, err)
		}
		if out.StatusCode != http.StatusFound || out.Header.Get("Location") != "/landed" {
			t.Errorf("%s: got %q Location %q, want the 302 itself", name, out.StatusLine, out.Header.Get("Location"))
		}
	}
	if n := landed.Load(); n != 0 {
		t.Errorf("the redirect was followed %d times", n)
	}
}

// TestClientKeepsWhatArrivedBeforeTimeout: an answer that dribbles (a
// slowloris: the status line and headers, then a byte every 150 ms) times
// out with what arrived and when: the status line, the body bytes read,
// the times of its first byte, of the end of its headers, of its first
// body byte (after the first 130 ms pause) and of its last, in that order
// and before the timeout.
func TestClientKeepsWhatArrivedBeforeTimeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // then the server notices the client leaving
		w.Header().Set("Content-Length", "100")
		w.WriteHeader(http.StatusOK)
		for _, b := range []byte("{\"tool\"") {
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(130 * time.Millisecond): // no byte is due at the 600 ms timeout
			}
			if _, err := w.Write([]byte{b}); err != nil {
				return
			}
		}
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	const timeout = 600 * time.Millisecond
	out, err := NewClient(WithTimeout(timeout)).Invoke(t.Context(), srv.URL, "x", nil, "")
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("Invoke: %v, want ErrTimeout", err)
	}
	if out.StatusLine != "HTTP/1.1 200 OK" || len(out.Body) < 2 || !strings.HasPrefix(`{"tool"`, string(out.Body)) {
		t.Errorf("Output = %q %q, want the status line and the first bytes of the body", out.StatusLine, out.Body)
	}
	if !(0 < out.FirstByteAfter && out.FirstByteAfter <= out.StatusAfter && out.StatusAfter+100*time.Millisecond < out.FirstBodyByteAfter &&
		out.FirstBodyByteAfter < out.LastByteAfter && out.LastByteAfter < timeout && timeout <= out.Elapsed) {
		t.Errorf("first byte after %v, status after %v, first body byte after %v, last byte after %v, elapsed %v: "+
			"want 0 < first <= status < status+100ms < first body byte < last < %v <= elapsed",
			out.FirstByteAfter, out.StatusAfter, out.FirstBodyByteAfter, out.LastByteAfter, out.Elapsed, timeout)
	}
}

// TestClientNoByteBeforeTimeout: a target that sends nothing times out
// with no time of arrival set.
func TestClientNoByteBeforeTimeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	out, err := NewClient(WithTimeout(200*time.Millisecond)).Invoke(t.Context(), srv.URL, "x", nil, "")
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("Invoke: %v, want ErrTimeout", err)
	}
	if out.StatusLine != "" || out.FirstByteAfter != 0 || out.StatusAfter != 0 || out.LastByteAfter != 0 || out.Elapsed == 0 {
		t.Errorf("Output = %+v, want no status line, no time of arrival, the time elapsed", out)
	}
}

// TestClientNotHTTP: an answer that does not start with an HTTP status
// line (garbage, or a connection closed within its status line) is said
// to be such, quoted, with how many bytes came and, when the client read
// that far, that the connection closed; not as a malformed status code. An answer with a status line
// and a broken header is left to the HTTP client's words.
func TestClientNotHTTP(t *testing.T) {
	tests := []struct {
		name, answer string
		want         string // the error's NotHTTPError text, "" for none
	}{
		{"garbage with spaces", "<html><body>hello world</body></html>\r\n\r\n",
			`the target answered bytes that are no HTTP status line: "<html><body>hello world</body></html>\r\n\r\n" (41 bytes read)`},
		{"one word", "garbage\n", `the target answered bytes that are no HTTP status line: "garbage\n" (8 bytes read)`},
		{"closed within the status line", "HTTP/1.1 20", `the target answered bytes that are no HTTP status line: "HTTP/1.1 20" (11 bytes read, then it closed the connection)`},
		{"a status line, then a broken header", "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewClient(WithTimeout(5*time.Second)).Invoke(t.Context(), rawServer(t, tt.answer), "x", nil, "")
			if !errors.Is(err, ErrConnection) {
				t.Fatalf("Invoke: %v, want ErrConnection", err)
			}
			var nh *NotHTTPError
			if got := errors.As(err, &nh); got != (tt.want != "") {
				t.Fatalf("Invoke: %v; a *NotHTTPError: %t, want %t", err, got, tt.want != "")
			}
			if nh != nil && nh.Error() != tt.want {
				t.Errorf("NotHTTPError:\n%s\nwant:\n%s", nh, tt.want)
			}
			if strings.Contains(err.Error(), "status code") && tt.want != "" {
				t.Errorf("Invoke: %v, said as a status code", err)
			}
		})
	}
}
