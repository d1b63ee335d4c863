package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/variant"
)

// reviewsUpstream answers a code host's review lists, with a cookie and
// a version header, and a 404 for any other pull request.
func reviewsUpstream(t *testing.T) *httptest.Server {
	t.Helper()
	lists := map[string]string{
		"1347": `[{"id": 1, "user": {"login": "sam", "id": 9}, "body": "LGTM", "state": "APPROVED", "submitted_at": "2025-03-04T09:12:44Z"}, {"id": 2, "user": {"login": "lee", "id": 10}, "body": "nit", "state": "COMMENTED", "submitted_at": "2025-03-04T10:12:44Z"}]`,
		"1348": `[{"id": 3, "user": {"login": "sam", "id": 9}, "body": "please fix", "state": "CHANGES_REQUESTED", "submitted_at": "2025-03-05T09:12:44Z"}]`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("X-GitHub-Api-Version", "2022-11-28")
		w.Header().Set("Set-Cookie", "session=s3cr3t-cookie")
		parts := strings.Split(r.URL.Path, "/")
		if body, ok := lists[parts[len(parts)-2]]; ok {
			fmt.Fprint(w, body)
			return
		}
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"message": "Not Found", "documentation_url": "https://docs.example/rest"}`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// freeAddr returns a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func TestFixturesRecord(t *testing.T) {
	upstream := reviewsUpstream(t)
	out := t.TempDir()
	addr := freeAddr(t)
	var stdout, stderr bytes.Buffer
	var code int
	var wg sync.WaitGroup
	wg.Go(func() {
		code = run(context.Background(), []string{"fixtures", "record", "--upstream", upstream.URL, "--listen", addr,
			"--tool", "reviews", "--out", out, "--max-answers", "3", "--route", "GET /repos/{owner}/{repo}/pulls/{number}/reviews",
			"--keep", "/*/id,/*/state,/*/user/login,/*/submitted_at"}, &stdout, &stderr)
	})
	client := &http.Client{Timeout: 5 * time.Second}
	for _, n := range []string{"1347", "1348", "9999"} {
		get(t, client, "http://"+addr+"/repos/octo-org/hello-world/pulls/"+n+"/reviews?access_token=tok123", "Bearer hdr-s3cr3t")
	}
	wg.Wait()
	if code != exitPass {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	c := corpus.New(os.DirFS(out))
	if p := corpus.Lint(c, time.Now(), corpus.Limits{}); p != nil {
		t.Errorf("lint: %v", p)
	}
	decided := corpus.Undecided(c)
	var inferred int
	for _, d := range decided {
		if strings.HasPrefix(d.Message, "inferred: ") {
			inferred++
		}
	}
	if inferred == 0 {
		t.Errorf("no inference marked among the decisions: %v", decided)
	}
	tool, err := c.Tool("reviews")
	if err != nil {
		t.Fatal(err)
	}
	if tool.VersionHeader != "X-Github-Api-Version" || tool.Versions["2022-11-28"].Schema == "" {
		t.Errorf("version header %q, versions %v: want the upstream's", tool.VersionHeader, tool.VersionNames())
	}
	cases, err := c.Cases("reviews")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases.Accepted) != 2 || len(tool.Errors) != 1 || tool.Errors[0].Status != "404" || !strings.Contains(string(tool.Errors[0].Body), `"message": "{{text}}"`) {
		t.Errorf("%d accepted, error answers %+v: want 2 and the 404 seen, its message the text", len(cases.Accepted), tool.Errors)
	}
	if vs, err := variant.Generate(c, variant.Options{Seed: 1}); err != nil || len(vs) < 50 {
		t.Errorf("%d variants (%v): want the generator to expand the recording", len(vs), err)
	}
	// No secret the client or the upstream sent is stored.
	err = filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		for _, secret := range []string{"s3cr3t", "tok123"} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s holds the secret %q", p, secret)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, c *http.Client, url, auth string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header.Set("Authorization", auth)
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET %s: %v", url, err)
		}
		time.Sleep(20 * time.Millisecond) // the proxy is not listening yet
	}
}

func TestFixturesRecordRefuses(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--tool", "x"}, "--upstream is required"},
		{[]string{"--upstream", "http://127.0.0.1:1"}, "--tool is required"},
		{[]string{"--upstream", "http://127.0.0.1:1", "--tool", "x", "--listen", "0.0.0.0:0"}, "not a loopback address"},
		{[]string{"--upstream", "http://127.0.0.1:1", "--tool", "x", "--route", "GET no-slash"}, "route"},
	}
	for _, tt := range tests {
		code, _, stderr := runCLI(t, append([]string{"fixtures", "record"}, tt.args...)...)
		if code != exitConfig || !regexp.MustCompile(regexp.QuoteMeta(tt.want)).MatchString(stderr) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
	// Nothing recorded within the duration: nothing to write.
	code, _, stderr := runCLI(t, "fixtures", "record", "--upstream", "http://127.0.0.1:1", "--tool", "x", "--listen", freeAddr(t), "--duration", "200ms", "--out", t.TempDir())
	if code != exitConfig || !strings.Contains(stderr, "no answer recorded") {
		t.Errorf("nothing recorded: exit %d, stderr %q", code, stderr)
	}
}
