package mocks_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/toolcert/toolcert/mocks"
)

// BenchmarkServe measures requests per second for a small JSON body, each
// on a new connection since the mock always closes it. The baseline is a
// plain net/http server closing connections too: the gap between the two
// is the mock's own cost.
func BenchmarkServe(b *testing.B) {
	body := []byte(`{"change_id":"CR-1","decision":"approved","reviewed_by":"ana"}`)
	b.Run("mock", func(b *testing.B) {
		u := newUpstream(b)
		program(b, u, "GET", "/reviews/CR-1", mocks.JSON(200, body))
		benchGet(b, u.URL()+"/reviews/CR-1")
		u.Reset() // the journal grew with b.N
	})
	b.Run("net-http-baseline", func(b *testing.B) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Connection", "close")
			_, _ = w.Write(body)
		}))
		b.Cleanup(srv.Close)
		benchGet(b, srv.URL+"/reviews/CR-1")
	})
}

// benchGet sends GET url b.N times from parallel clients and reports req/s.
func benchGet(b *testing.B, url string) {
	b.Helper()
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			resp, err := c.Get(url)
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
}
