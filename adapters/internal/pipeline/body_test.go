package pipeline

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestBodyEndsEarly(t *testing.T) {
	whole := `{"arguments":` + refundArgs + `}`
	cut := whole[:strings.Index(whole, `"damaged"`)+4] // inside the reason
	tests := []struct {
		name    string
		headers string
		body    string
	}{
		{"content-length, cut inside a string", fmt.Sprintf("Content-Length: %d\r\n", len(whole)), cut},
		{"content-length, whole JSON but bytes missing", fmt.Sprintf("Content-Length: %d\r\n", len(whole)+8), whole},
		{"chunked, no last chunk", "Transfer-Encoding: chunked\r\n", fmt.Sprintf("%x\r\n%s\r\n", len(cut), cut)},
		{"chunked, whole JSON, no last chunk", "Transfer-Encoding: chunked\r\n", fmt.Sprintf("%x\r\n%s\r\n", len(whole), whole)},
		{"chunked, cut inside a chunk", "Transfer-Encoding: chunked\r\n", fmt.Sprintf("%x\r\n%s", len(whole), cut)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			up := newCallUpstream(t, json200(orderOK), 202, `{}`)
			a := newCallAdapter(t, up.URL)
			srv := httptest.NewServer(a)
			t.Cleanup(srv.Close)
			head := "POST /v1/tools/request_refund/invoke HTTP/1.1\r\nHost: adapter\r\nAuthorization: Bearer " + agent +
				"\r\nContent-Type: application/json\r\n" + tt.headers + "\r\n"
			status := sendAndHalfClose(t, srv.Listener.Addr().String(), head+tt.body)
			if status != http.StatusBadRequest {
				t.Errorf("status = %d, want 400", status)
			}
			ev := onlyEvent(t, a.audit.take())
			if ev.Reason != "arguments_invalid" || ev.Decision == nil || ev.Decision.Decision != "deny" {
				t.Errorf("audit %s %s, decision %+v; want a deny, arguments_invalid", ev.Gate, ev.Reason, ev.Decision)
			}
			if reqs := up.requests(); len(reqs) != 0 {
				t.Errorf("upstream saw %v: a body that ended early was acted on", reqs)
			}
		})
	}
}

// sendAndHalfClose writes raw on a new connection to addr, closes the
// connection's write side and returns the status of the response (0 when
// none arrived within 5 s).
func sendAndHalfClose(tb testing.TB, addr, raw string) int {
	tb.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write([]byte(raw)); err != nil {
		tb.Fatal(err)
	}
	c.(*net.TCPConn).CloseWrite()
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		tb.Logf("no response: %v", err)
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}
