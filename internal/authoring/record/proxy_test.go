package record

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// reviewPath returns the review list path of pull n of owner/repo, with
// a query holding secrets.
func reviewPath(owner, repo, n string) string {
	return "/repos/" + owner + "/" + repo + "/pulls/" + n + "/reviews?per_page=5&access_token=" + secretQueryToken + "&Sig=abc&X-Api-Key=k"
}

func TestRecordsReviews(t *testing.T) {
	up := newUpstream(t, nil)
	rec, proxy := serve(t, up, Config{})
	repos := [][2]string{{"octo", "hello"}, {"mona", "world"}}
	for i, n := range reviewOrder {
		path := reviewPath(repos[i%2][0], repos[i%2][1], n)
		direct, via := fetch(t, up.URL+path), fetch(t, proxy+path)
		if diff := cmp.Diff(direct, via); diff != "" {
			t.Errorf("pull %s: the client got other than the upstream sent (-upstream +proxied):\n%s", n, diff)
		}
	}
	answers := rec.Answers()
	if len(answers) != len(reviewOrder) {
		t.Fatalf("%d answers, want %d: %+v", len(answers), len(reviewOrder), rec.Skipped())
	}
	for i, a := range answers {
		n := reviewOrder[i]
		want := Answer{
			Method: "GET", Path: "/repos/" + repos[i%2][0] + "/" + repos[i%2][1] + "/pulls/" + n + "/reviews",
			RawQuery:  "per_page=5&access_token=REDACTED&Sig=REDACTED&X-Api-Key=REDACTED",
			Arguments: map[string]string{"repo": repos[i%2][0], "arg1": repos[i%2][1], "pull": n},
			Status:    http.StatusOK,
			Header:    http.Header{"Content-Type": {"application/json; charset=utf-8"}, "X-Github-Api-Version": {"2022-11-28"}},
			Body:      []byte(reviewBodies[n]),
		}
		if diff := cmp.Diff(want, a); diff != "" {
			t.Errorf("answer %d (-want +got):\n%s", i, diff)
		}
		checkNoSecret(t, a)
	}
	method, path, infs := rec.Route()
	if method != "GET" || path != "/repos/{repo}/{arg1}/pulls/{pull}/reviews" {
		t.Errorf("Route() = %s %s", method, path)
	}
	if !containsInference(infs, Inference{routePointer, "{pull} varied: 1347, 1348, 1349, 1350"}) {
		t.Errorf("Route() inferences %+v lack {pull}", infs)
	}
}

// checkNoSecret fails when a secret the tests send shows anywhere in a,
// or a header that carries one is among its headers.
func checkNoSecret(t *testing.T, a Answer) {
	t.Helper()
	text := dump(a)
	for _, secret := range []string{secretAuthorization, "ghp_requestTokenNeverStored", secretCookie, "cookieNeverStored", secretAPIKey, secretSetCookie, "setCookieNeverStored", secretAnswerAuth, "answerAuthNeverStored", secretQueryToken} {
		if strings.Contains(text, secret) {
			t.Errorf("%q stored in %s", secret, text)
		}
	}
	for _, name := range []string{"Authorization", "Cookie", "Set-Cookie", "X-Api-Key"} {
		if _, ok := a.Header[name]; ok {
			t.Errorf("header %s stored", name)
		}
	}
}

func TestForwardsRequest(t *testing.T) {
	up := newUpstream(t, map[string]http.HandlerFunc{
		"POST /base/echo/{x}": func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Type"] = nil // no type, no date: the proxy must not add them
			w.Header()["Date"] = nil
			w.Header().Set("Trailer", "X-Checksum")
			io.WriteString(w, "hello")
			w.Header().Set("X-Checksum", "abc")
		},
	})
	base := mustURL(t, up.URL+"/base/")
	rec, proxy := serve(t, up, Config{Upstream: base})
	req, err := http.NewRequest(http.MethodPost, proxy+"/echo/a%2Fb?q=1", strings.NewReader(`{"x":1}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Connection", "X-Drop")
	req.Header.Set("X-Drop", "1")
	req.Header.Set("X-Keep", "2")
	req.Header.Set("Proxy-Authorization", "Basic cHJveHk=")
	resp, err := rawClient(t).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if len(up.received()) != 1 {
		t.Fatal("the upstream saw no request")
	}
	got, gotBody := up.received()[0], up.bodies[0]
	checks := []struct {
		what      string
		got, want any
	}{
		{"method", got.Method, "POST"},
		{"escaped path", got.URL.EscapedPath(), "/base/echo/a%2Fb"},
		{"query", got.URL.RawQuery, "q=1"},
		{"body", gotBody, `{"x":1}`},
		{"host", got.Host, strings.TrimPrefix(up.URL, "http://")},
		{"end-to-end header", got.Header.Get("X-Keep"), "2"},
		{"header named in Connection", got.Header.Get("X-Drop"), ""},
		{"Proxy-Authorization", got.Header.Get("Proxy-Authorization"), ""},
		{"client body", string(body), "hello"},
		{"no Content-Type added", resp.Header.Values("Content-Type"), []string(nil)},
		{"no Date added", resp.Header.Values("Date"), []string(nil)},
		{"trailer", resp.Trailer.Get("X-Checksum"), "abc"},
	}
	for _, c := range checks {
		if diff := cmp.Diff(c.want, c.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.what, diff)
		}
	}
	if a := rec.Answers(); len(a) != 1 || !strings.Contains(a[0].Note, "Content-Type") {
		t.Errorf("answers %+v, want one noted as not JSON", a)
	}
}

func TestNotFoundNoted(t *testing.T) {
	up := newUpstream(t, nil)
	rec, proxy := serve(t, up, Config{})
	path := reviewPath("octo", "hello", "9999")
	direct, via := fetch(t, up.URL+path), fetch(t, proxy+path)
	if diff := cmp.Diff(direct, via); diff != "" {
		t.Errorf("(-upstream +proxied):\n%s", diff)
	}
	a := rec.Answers()
	if len(a) != 1 || a[0].Status != http.StatusNotFound || string(a[0].Body) != direct.Body {
		t.Fatalf("answers %+v, want the 404 recorded byte for byte", a)
	}
	if !strings.Contains(a[0].Note, "status 404: not a 2xx answer") {
		t.Errorf("Note %q, want it to name the status", a[0].Note)
	}
}

func TestRedirectPassedBack(t *testing.T) {
	up := newUpstream(t, map[string]http.HandlerFunc{
		"GET /old": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/repos/octo/hello/pulls/1347/reviews", http.StatusFound)
		},
	})
	rec, proxy := serve(t, up, Config{})
	via := fetch(t, proxy+"/old")
	if via.Status != http.StatusFound || via.Header.Get("Location") != "/repos/octo/hello/pulls/1347/reviews" {
		t.Errorf("client got %d Location %q, want the 302 as is", via.Status, via.Header.Get("Location"))
	}
	for _, r := range up.received() {
		if r.URL.Path != "/old" {
			t.Errorf("the proxy followed the redirect to %s", r.URL.Path)
		}
	}
	if a := rec.Answers(); len(a) != 1 || a[0].Status != http.StatusFound || !strings.Contains(a[0].Note, "status 302") {
		t.Errorf("answers %+v, want the 302 recorded with a Note", a)
	}
}

func TestMaxBody(t *testing.T) {
	big := bytes.Repeat([]byte("[1,2,3,4]"), 20000)
	up := newUpstream(t, map[string]http.HandlerFunc{
		"GET /big":     func(w http.ResponseWriter, r *http.Request) { w.Write(big) },
		"GET /exact":   func(w http.ResponseWriter, r *http.Request) { w.Write(big[:1024]) },
		"GET /chunked": chunked(big),
	})
	rec, proxy := serve(t, up, Config{MaxBody: 1024})
	for _, path := range []string{"/big", "/chunked", "/exact"} {
		if via, direct := fetch(t, proxy+path), fetch(t, up.URL+path); via.Body != direct.Body {
			t.Errorf("%s: the client got %d bytes, want all %d", path, len(via.Body), len(direct.Body))
		}
	}
	if a := rec.Answers(); len(a) != 1 || a[0].Path != "/exact" || len(a[0].Body) != 1024 {
		t.Errorf("answers %+v, want only /exact, 1024 bytes", a)
	}
	want := []Skip{
		{Method: "GET", Path: "/big", Status: 200, Reason: "longer than MaxBody (1024 bytes)"},
		{Method: "GET", Path: "/chunked", Status: 200, Reason: "longer than MaxBody (1024 bytes)"},
	}
	if diff := cmp.Diff(want, rec.Skipped()); diff != "" {
		t.Errorf("Skipped() (-want +got):\n%s", diff)
	}
}

// chunked serves body in small flushed pieces, with no Content-Length.
func chunked(all []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for body := all; len(body) > 0; {
			n := min(len(body), 1000)
			w.Write(body[:n])
			w.(http.Flusher).Flush()
			body = body[n:]
		}
	}
}

func TestMaxAnswers(t *testing.T) {
	up := newUpstream(t, nil)
	rec, proxy := serve(t, up, Config{MaxAnswers: 2})
	for _, n := range reviewOrder[:3] {
		if via := fetch(t, proxy+reviewPath("octo", "hello", n)); via.Body != reviewBodies[n] {
			t.Errorf("pull %s not forwarded past MaxAnswers", n)
		}
	}
	if a := rec.Answers(); len(a) != 2 {
		t.Errorf("%d answers, want 2", len(a))
	}
	want := []Skip{{Method: "GET", Path: "/repos/octo/hello/pulls/1349/reviews", Status: 200, Reason: "over MaxAnswers (2)"}}
	if diff := cmp.Diff(want, rec.Skipped()); diff != "" {
		t.Errorf("Skipped() (-want +got):\n%s", diff)
	}
}

func TestConfiguredRoute(t *testing.T) {
	up := newUpstream(t, map[string]http.HandlerFunc{
		"GET /rate_limit": func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{}`) },
	})
	rec, proxy := serve(t, up, Config{Route: "GET /repos/{owner}/{repo}/pulls/{n}/reviews"})
	fetch(t, proxy+reviewPath("octo", "hello", "1347"))
	if via := fetch(t, proxy+"/rate_limit"); via.Body != `{}` {
		t.Errorf("off-route request not forwarded: %+v", via)
	}
	a := rec.Answers()
	if len(a) != 1 || cmp.Diff(map[string]string{"owner": "octo", "repo": "hello", "n": "1347"}, a[0].Arguments) != "" {
		t.Errorf("answers %+v, want the review list with its arguments", a)
	}
	if s := rec.Skipped(); len(s) != 1 || s[0].Path != "/rate_limit" || s[0].Reason != "not on the route" {
		t.Errorf("Skipped() = %+v, want /rate_limit off the route", s)
	}
	method, path, infs := rec.Route()
	if method != "GET" || path != "/repos/{owner}/{repo}/pulls/{n}/reviews" || infs != nil {
		t.Errorf("Route() = %s %s %v, want the configured route and no inference", method, path, infs)
	}
}

func TestInferredRouteNotes(t *testing.T) {
	up := newUpstream(t, map[string]http.HandlerFunc{
		"GET /rate_limit": func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{}`) },
	})
	rec, proxy := serve(t, up, Config{})
	fetch(t, proxy+reviewPath("octo", "hello", "1347"))
	fetch(t, proxy+reviewPath("octo", "hello", "1348"))
	fetch(t, proxy+"/rate_limit")
	a := rec.Answers()
	if len(a) != 3 || a[2].Arguments != nil || !strings.Contains(a[2].Note, "not of the inferred route's shape (GET /repos/octo/hello/pulls/{pull}/reviews)") {
		t.Errorf("answers %+v, want /rate_limit noted off the inferred route", a)
	}
}

func TestHangingUpstream(t *testing.T) {
	release := make(chan struct{})
	up := newUpstream(t, map[string]http.HandlerFunc{
		"GET /hang": func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		},
	})
	t.Cleanup(func() { close(release) }) // before the upstream closes
	client := &http.Client{Timeout: 200 * time.Millisecond, Transport: &http.Transport{Proxy: nil}}
	rec, proxy := serve(t, up, Config{Client: client})
	start := time.Now()
	via := fetch(t, proxy+"/hang")
	if elapsed := time.Since(start); elapsed > 2*time.Second {
		t.Errorf("the proxy answered after %v, want about 200ms", elapsed)
	}
	if via.Status != http.StatusGatewayTimeout {
		t.Errorf("status %d, want 504", via.Status)
	}
	want := []Skip{{Method: "GET", Path: "/hang", Status: http.StatusGatewayTimeout, Reason: "the upstream did not answer in time"}}
	if diff := cmp.Diff(want, rec.Skipped()); diff != "" {
		t.Errorf("Skipped() (-want +got):\n%s", diff)
	}
}

func TestUnreachableUpstream(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	rec, proxy := serve(t, nil, Config{Upstream: mustURL(t, "http://"+addr)})
	if via := fetch(t, proxy+"/x?token=abc"); via.Status != http.StatusBadGateway || strings.Contains(via.Body, "abc") {
		t.Errorf("got %+v, want a 502 that does not echo the query", via)
	}
	if s := rec.Skipped(); len(s) != 1 || s[0].Status != http.StatusBadGateway {
		t.Errorf("Skipped() = %+v", s)
	}
}

func TestUpstreamBreaksOff(t *testing.T) {
	up := newUpstream(t, map[string]http.HandlerFunc{
		"GET /broken": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "100")
			io.WriteString(w, `[1,2,`)
			w.(http.Flusher).Flush()
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close()
			}
		},
	})
	rec, proxy := serve(t, up, Config{})
	resp, err := rawClient(t).Get(proxy + "/broken")
	if err == nil {
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	if err == nil {
		t.Error("the client read a whole answer from an upstream that broke off")
	}
	if a := rec.Answers(); len(a) != 0 {
		t.Errorf("answers %+v, want none", a)
	}
	if s := rec.Skipped(); len(s) != 1 || s[0].Reason != "the upstream's answer broke off" {
		t.Errorf("Skipped() = %+v", s)
	}
}

func TestContentEncodingNoted(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	io.WriteString(zw, reviewBodies["1347"])
	zw.Close()
	up := newUpstream(t, map[string]http.HandlerFunc{
		"GET /gz": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(gz.Bytes())
		},
	})
	rec, proxy := serve(t, up, Config{})
	header := http.Header{"Accept-Encoding": {"gzip"}}
	via, direct := send(t, "GET", proxy+"/gz", header), send(t, "GET", up.URL+"/gz", header)
	if diff := cmp.Diff(direct, via); diff != "" {
		t.Errorf("(-upstream +proxied):\n%s", diff)
	}
	a := rec.Answers()
	if len(a) != 1 || !bytes.Equal(a[0].Body, gz.Bytes()) || !strings.Contains(a[0].Note, `Content-Encoding "gzip"`) {
		t.Errorf("answers %+v, want the gzip bytes as received, noted", a)
	}
}

func TestConcurrentRequests(t *testing.T) {
	up := newUpstream(t, nil)
	rec, proxy := serve(t, up, Config{})
	const n = 40
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			pull := reviewOrder[i%len(reviewOrder)]
			if via := fetch(t, proxy+reviewPath("octo", "hello", pull)); via.Body != reviewBodies[pull] {
				t.Errorf("request %d: wrong body", i)
			}
			_ = rec.Answers() // reading while recording
		})
	}
	wg.Wait()
	answers := rec.Answers()
	if len(answers) != n {
		t.Fatalf("%d answers, want %d (skipped %+v)", len(answers), n, rec.Skipped())
	}
	for _, a := range answers {
		if string(a.Body) != reviewBodies[a.Arguments["pull"]] {
			t.Errorf("answer for %s holds another body", a.Path)
		}
	}
}

func TestNewRefuses(t *testing.T) {
	cases := []struct {
		name, why string
		cfg       Config
	}{
		{"no upstream", "nothing to forward to", Config{}},
		{"ftp upstream", "only http and https are forwarded", Config{Upstream: mustURL(t, "ftp://example.com")}},
		{"no host", "an upstream needs a host", Config{Upstream: mustURL(t, "http:///x")}},
		{"query", "the base URL holds no query", Config{Upstream: mustURL(t, "http://example.com/?token=x")}},
		{"user info", "credentials do not belong in the base URL", Config{Upstream: mustURL(t, "http://u:p@example.com")}},
		{"negative MaxBody", "a limit is not negative", Config{Upstream: mustURL(t, "http://example.com"), MaxBody: -1}},
		{"negative MaxAnswers", "a limit is not negative", Config{Upstream: mustURL(t, "http://example.com"), MaxAnswers: -1}},
		{"bad route", "the route is a template", Config{Upstream: mustURL(t, "http://example.com"), Route: "repos/{x}"}},
	}
	for _, c := range cases {
		if _, err := New(c.cfg); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: New: %v, want ErrConfig (%s)", c.name, err, c.why)
		}
	}
}

func TestRecorderAsHandler(t *testing.T) {
	up := newUpstream(t, nil)
	rec, err := New(Config{Upstream: mustURL(t, up.URL)})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("CONNECT", "/", nil)
	req.URL.Path = ""
	w := &recorderWriter{header: http.Header{}}
	rec.ServeHTTP(w, req)
	if w.status != http.StatusBadRequest {
		t.Errorf("CONNECT got %d, want 400", w.status)
	}
	if s := rec.Skipped(); len(s) != 1 || s[0].Reason != "only origin-form requests are forwarded" {
		t.Errorf("Skipped() = %+v", s)
	}
}

// recorderWriter is the least http.ResponseWriter: no deadlines, no
// flushing, as a plain handler test gives.
type recorderWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *recorderWriter) Header() http.Header         { return w.header }
func (w *recorderWriter) Write(p []byte) (int, error) { return w.body.Write(p) }
func (w *recorderWriter) WriteHeader(status int)      { w.status = status }
