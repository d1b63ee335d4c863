package record

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"

	"github.com/toolcert/toolcert/internal/judge"
)

// Secrets the GitHub-like upstream and its clients send; none may be
// stored anywhere in an Answer or a Skip.
const (
	secretAuthorization = "Bearer ghp_requestTokenNeverStored"
	secretCookie        = "session=cookieNeverStored"
	secretAPIKey        = "apikey-never-stored"
	secretSetCookie     = "_gh_sess=setCookieNeverStored; Path=/; HttpOnly"
	secretAnswerAuth    = "Basic answerAuthNeverStored"
	secretQueryToken    = "querytokenneverstored"
)

// reviewBodies are the review lists of three pulls of octo/hello, as a
// GitHub-like upstream sends them.
var reviewBodies = map[string]string{
	"1347": `[{"id":80,"node_id":"MDE3OlB1bGxSZXF1ZXN0UmV2aWV3ODA=","user":{"login":"octocat","id":1,"site_admin":false},"body":"Looks good","state":"APPROVED","html_url":"https://github.com/octo/hello/pull/1347#pullrequestreview-80","submitted_at":"2019-11-17T17:43:43Z","commit_id":"ecdd80bb57125d7ba9641ffaa4d7d2c19d3f3091","author_association":"COLLABORATOR"},` +
		`{"id":81,"node_id":"MDE3OlB1bGxSZXF1ZXN0UmV2aWV3ODE=","user":{"login":"hubot","id":2,"site_admin":false},"body":"","state":"COMMENTED","html_url":"https://github.com/octo/hello/pull/1347#pullrequestreview-81","submitted_at":"2019-11-18T09:12:00Z","commit_id":"ecdd80bb57125d7ba9641ffaa4d7d2c19d3f3091","author_association":"CONTRIBUTOR"}]`,
	"1348": `[{"id":90,"node_id":"MDE3OlB1bGxSZXF1ZXN0UmV2aWV3OTA=","user":{"login":"monalisa","id":3,"site_admin":true},"body":"Please fix the typo","state":"CHANGES_REQUESTED","html_url":"https://github.com/octo/hello/pull/1348#pullrequestreview-90","submitted_at":"2019-11-19T10:00:00.5+02:00","commit_id":"f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4","author_association":"MEMBER"},` +
		`{"id":91,"node_id":"MDE3OlB1bGxSZXF1ZXN0UmV2aWV3OTE=","user":{"login":"octocat","id":1,"site_admin":false},"body":"Approved now","state":"APPROVED","html_url":"https://github.com/octo/hello/pull/1348#pullrequestreview-91","submitted_at":"2019-11-20T08:30:00Z","commit_id":"f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4","author_association":"COLLABORATOR"}]`,
	"1349": `[{"id":95,"node_id":"MDE3OlB1bGxSZXF1ZXN0UmV2aWV3OTU=","user":{"login":"hubot","id":2,"site_admin":false},"body":"Why?","state":"COMMENTED","html_url":"https://github.com/octo/hello/pull/1349#pullrequestreview-95","submitted_at":"2019-11-21T12:00:00Z","commit_id":"0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3","author_association":"CONTRIBUTOR"},` +
		`{"id":96,"node_id":"MDE3OlB1bGxSZXF1ZXN0UmV2aWV3OTY=","user":{"login":"monalisa","id":3,"site_admin":true},"body":"Still a typo","state":"CHANGES_REQUESTED","html_url":"https://github.com/octo/hello/pull/1349#pullrequestreview-96","submitted_at":"2019-11-21T13:00:00Z","commit_id":"0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3","author_association":"MEMBER"}]`,
	"1350": `[]`,
}

// reviewOrder is the order the tests ask for the pulls.
var reviewOrder = []string{"1347", "1348", "1349", "1350"}

// upstream is a GitHub-like upstream on 127.0.0.1 that remembers what
// reached it.
type upstream struct {
	*httptest.Server
	mu       sync.Mutex
	requests []*http.Request
	bodies   []string
}

// newUpstream starts a GitHub-like upstream serving reviewBodies at
// /repos/{owner}/{repo}/pulls/{n}/reviews, 404 for any other pull, and the
// extra handlers given (path -> handler). It answers with the secrets
// above in Authorization, Set-Cookie and X-Api-Key, and a fixed Date, so
// that a direct answer and a proxied one compare equal.
func newUpstream(tb testing.TB, extra map[string]http.HandlerFunc) *upstream {
	tb.Helper()
	u := &upstream{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /repos/{owner}/{repo}/pulls/{n}/reviews", u.reviews)
	for path, h := range extra {
		mux.HandleFunc(path, h)
	}
	u.Server = httptest.NewServer(u.remember(mux))
	tb.Cleanup(u.Close)
	return u
}

// remember keeps each request, and its body, before h serves it.
func (u *upstream) remember(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		u.mu.Lock()
		u.requests = append(u.requests, r.Clone(r.Context()))
		u.bodies = append(u.bodies, string(body))
		u.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// reviews serves one pull's review list.
func (u *upstream) reviews(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Date", "Sun, 17 Nov 2019 18:00:00 GMT")
	h.Set("Authorization", secretAnswerAuth)
	h.Set("Set-Cookie", secretSetCookie)
	h.Set("X-Api-Key", secretAPIKey)
	h.Set("X-GitHub-Api-Version", "2022-11-28")
	h.Set("X-GitHub-Request-Id", "CAFE:1234")
	body, ok := reviewBodies[r.PathValue("n")]
	if !ok {
		h.Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"message":"Not Found","documentation_url":"https://docs.github.com/rest"}`)
		return
	}
	h.Set("Content-Type", "application/json; charset=utf-8")
	io.WriteString(w, body)
}

// received returns the requests that reached u so far.
func (u *upstream) received() []*http.Request {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]*http.Request(nil), u.requests...)
}

// serve starts a Recorder for cfg (Upstream defaulting to up) on
// 127.0.0.1 and returns it and its URL.
func serve(tb testing.TB, up *upstream, cfg Config) (*Recorder, string) {
	tb.Helper()
	if cfg.Upstream == nil {
		cfg.Upstream = mustURL(tb, up.URL)
	}
	rec, err := New(cfg)
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	srv := httptest.NewServer(rec)
	tb.Cleanup(srv.Close)
	return rec, srv.URL
}

// mustURL parses s.
func mustURL(tb testing.TB, s string) *url.URL {
	tb.Helper()
	u, err := url.Parse(s)
	if err != nil {
		tb.Fatal(err)
	}
	return u
}

// rawClient returns a client that follows no redirect and leaves bodies
// encoded, so a test sees what was sent.
func rawClient(tb testing.TB) *http.Client {
	tr := &http.Transport{DisableCompression: true, Proxy: nil}
	tb.Cleanup(tr.CloseIdleConnections)
	return &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// reply is what a client got: status, headers, body, trailers.
type reply struct {
	Status  int
	Header  http.Header
	Body    string
	Trailer http.Header
}

// fetch sends a GET of target with the client-side secrets and returns
// what came back.
func fetch(tb testing.TB, target string) reply {
	tb.Helper()
	return send(tb, http.MethodGet, target, nil)
}

// send sends a request of method to target with the client-side secrets
// and the headers given, and returns what came back.
func send(tb testing.TB, method, target string, header http.Header) reply {
	tb.Helper()
	req, err := http.NewRequest(method, target, nil)
	if err != nil {
		tb.Fatal(err)
	}
	for name, values := range header {
		req.Header[name] = values
	}
	req.Header.Set("Authorization", secretAuthorization)
	req.Header.Set("Cookie", secretCookie)
	req.Header.Set("X-Api-Key", secretAPIKey)
	req.Header.Set("Accept", "application/vnd.github+json")
	resp, err := rawClient(tb).Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v", method, target, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatalf("read %s: %v", target, err)
	}
	return reply{resp.StatusCode, resp.Header, string(body), resp.Trailer}
}

// checkSchema checks what every inferred schema must be: it compiles
// (Draft 2020-12, formats asserted), is closed and accepts every body it
// was inferred from. It returns the schema's value tree.
func checkSchema(tb testing.TB, schema []byte, bodies []string) any {
	tb.Helper()
	s, err := judge.Compile("inferred", schema)
	if err != nil {
		tb.Fatalf("compile: %v\n%s", err, schema)
	}
	if err := judge.Closed(schema); err != nil {
		tb.Fatalf("closed: %v\n%s", err, schema)
	}
	for i, body := range bodies {
		doc, err := judge.ParseJSON([]byte(body), judge.Limits{})
		if err != nil {
			tb.Fatalf("body %d: %v", i, err)
		}
		if err := s.Validate(doc); err != nil {
			tb.Errorf("body %d refused by its own schema: %v\n%s", i, err, schema)
		}
	}
	doc, err := judge.ParseJSON(schema, judge.Limits{MaxDepth: 256})
	if err != nil {
		tb.Fatal(err)
	}
	return doc
}

// jsonText returns v as compact JSON, for comparing value trees.
func jsonText(tb testing.TB, v any) string {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// dump returns everything a holds, its body as text, to search for
// secrets.
func dump(a Answer) string {
	body := string(a.Body)
	a.Body = nil
	return fmt.Sprintf("%#v %s", a, body)
}
