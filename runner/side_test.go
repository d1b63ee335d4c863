package runner

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/internal/harness"
)

// TestSideRoutesServedOnEveryLane: the corpus's routes.json is served by
// every lane's mock from the start, behind programmed routes, across
// resets; a pattern must match the whole path; a bad file is a
// configuration error.
func TestSideRoutesServedOnEveryLane(t *testing.T) {
	fsys := copyFS(t, toolcert.Fixtures())
	fsys["routes.json"] = &fstest.MapFile{Data: []byte(`{"routes": [
  {"method": "GET", "path": "/api", "body": {"kind": "APIVersions", "versions": ["v1"]}, "why": "discovery"},
  {"method": "*", "pattern": "/apis(/.*)?", "status": 200, "headers": {"X-Seen": "yes"}, "text": "groups"}]}`)}
	cfg := Config{Target: reference.InProcess(), Fixtures: fsys, Concurrency: 2}
	if err := cfg.check(); err != nil {
		t.Fatal(err)
	}
	pc, err := cfg.pool(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	pc.Lanes = 2
	pool, err := harness.StartPool(context.Background(), pc)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close(context.Background())
	get := func(url, method string) (int, string, string) {
		t.Helper()
		req, _ := http.NewRequest(method, url, nil)
		resp, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type") + " " + resp.Header.Get("X-Seen"), string(b)
	}
	for _, lane := range pool.Lanes() {
		lane.Upstream.Reset()
		base := lane.Upstream.URL()
		if code, head, body := get(base+"/api", "GET"); code != 200 || head != "application/json " || !strings.Contains(body, "APIVersions") {
			t.Errorf("lane %d GET /api: %d %q %q", lane.ID, code, head, body)
		}
		if code, head, body := get(base+"/apis/apps/v1", "POST"); code != 200 || head != "text/plain; charset=utf-8 yes" || body != "groups" {
			t.Errorf("lane %d POST /apis/apps/v1: %d %q %q", lane.ID, code, head, body)
		}
		if code, _, _ := get(base+"/x/apis", "GET"); code != http.StatusNotImplemented {
			t.Errorf("lane %d GET /x/apis: %d, want 501: a pattern matches the whole path", lane.ID, code)
		}
	}
	fsys["routes.json"] = &fstest.MapFile{Data: []byte(`{"routes": [{"method": "GET", "path": "api"}]}`)}
	if _, err := (&Config{Fixtures: fsys}).pool(t.TempDir()); err == nil || !strings.Contains(err.Error(), `path "api": want one that starts with /`) {
		t.Errorf("a bad routes.json: %v", err)
	}
}
