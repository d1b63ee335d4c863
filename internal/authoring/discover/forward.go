package discover

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// A real upstream (Options.Upstream) answers in place of the description:
// the mock forwards each request to it and keeps its answer. Discover
// sends nothing off loopback, so the upstream must be on it (a local
// instance of the API, or a tunnel the user opened).

// ErrNotLoopback means the real upstream is not on this machine's
// loopback.
var ErrNotLoopback = errors.New("discover sends nothing off loopback")

// maxForwarded bounds what is kept of a real upstream's answer.
const maxForwarded = 8 << 20

// checkLoopback parses a real upstream's base URL and refuses one whose
// host is not a loopback address or localhost.
func checkLoopback(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" {
		return nil, fmt.Errorf("upstream %q: want a base URL such as http://127.0.0.1:8080", raw)
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("upstream %q: %w: give one on 127.0.0.1, ::1 or localhost", raw, ErrNotLoopback)
	}
	return u, nil
}

// forwarder sends requests on to a real upstream.
type forwarder struct {
	base   *url.URL
	client *http.Client
}

// newForwarder returns a forwarder to base, which follows no redirect (a
// redirect could leave loopback).
func newForwarder(base *url.URL) *forwarder {
	return &forwarder{base: base, client: &http.Client{
		Timeout:       30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// forward sends r on (its method, path, query and end-to-end headers) and
// returns the answer, at most maxForwarded bytes of it.
func (f *forwarder) forward(r *http.Request, body []byte) reply {
	target := *f.base
	target.Path = strings.TrimSuffix(f.base.Path, "/") + r.URL.Path
	target.RawPath = ""
	target.RawQuery = r.URL.RawQuery
	out, err := http.NewRequestWithContext(r.Context(), r.Method, target.String(), bytes.NewReader(body))
	if err != nil {
		return jsonReply(http.StatusBadGateway, "toolcert discover: "+err.Error())
	}
	for k, vs := range r.Header {
		switch http.CanonicalHeaderKey(k) {
		case "Connection", "Keep-Alive", "Proxy-Connection", "Te", "Trailer", "Transfer-Encoding", "Upgrade", "Host", "Content-Length":
			continue
		}
		out.Header[k] = vs
	}
	resp, err := f.client.Do(out)
	if err != nil {
		return jsonReply(http.StatusBadGateway, "toolcert discover: the upstream did not answer: "+err.Error())
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxForwarded))
	if err != nil {
		return jsonReply(http.StatusBadGateway, "toolcert discover: reading the upstream's answer: "+err.Error())
	}
	return reply{Status: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"), Body: b, Real: true}
}
