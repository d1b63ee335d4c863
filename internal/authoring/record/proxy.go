package record

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ServeHTTP forwards req to the upstream and hands the answer back byte
// for byte (status, headers but the hop-by-hop ones, body, trailers),
// then records it or notes why not. Request headers are forwarded but
// the hop-by-hop ones, the Host is the upstream's, and no request header
// is stored. An upstream that fails or does not answer within the
// exchange's timeout gets the client a 502 or 504. An answer that breaks
// off mid-body aborts the client's connection (http.ErrAbortHandler), so
// the client cannot take a truncated body for a whole one.
func (r *Recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	seq := r.arrive()
	ctx, cancel := context.WithTimeout(req.Context(), r.cfg.timeout)
	defer cancel()
	limitConnection(w, r.cfg.timeout+deadlineMargin)
	out, err := r.outgoing(ctx, req)
	if err != nil {
		http.Error(w, "toolcert record: "+err.Error(), http.StatusBadRequest)
		r.skip(seq, Skip{Method: req.Method, Path: req.URL.EscapedPath(), Status: http.StatusBadRequest, Reason: err.Error()})
		return
	}
	resp, err := r.cfg.client.Do(out)
	if err != nil {
		status, reason := gatewayFailure(err)
		http.Error(w, "toolcert record: "+reason, status)
		r.skip(seq, Skip{Method: req.Method, Path: req.URL.EscapedPath(), Status: status, Reason: reason})
		return
	}
	defer resp.Body.Close()
	r.answer(w, req, resp, seq)
}

// exchange is one forwarded request and the upstream's answer, while
// it is relayed.
type exchange struct {
	req    *http.Request
	resp   *http.Response
	seq    uint64            // arrival order
	args   map[string]string // on the configured route
	reason string            // why it will not be recorded, "" when it will
}

// skipped returns the Skip of x, for reason.
func (x *exchange) skipped(reason string) Skip {
	return Skip{Method: x.req.Method, Path: x.req.URL.EscapedPath(), Status: x.resp.StatusCode, Reason: reason}
}

// answer relays resp to w and records it, or notes why not.
func (r *Recorder) answer(w http.ResponseWriter, req *http.Request, resp *http.Response, seq uint64) {
	x := &exchange{req: req, resp: resp, seq: seq}
	x.args, x.reason = r.intent(req)
	keep := r.cfg.maxBody
	if x.reason != "" {
		keep = 0
	}
	finished := false
	err := relay(w, resp, keep, func(body []byte, total int64) {
		finished = true
		r.keepOrSkip(x, body, total)
	})
	switch {
	case err == nil || finished:
	case errors.Is(err, errUpstreamBroke):
		r.skip(seq, x.skipped("the upstream's answer broke off"))
		panic(http.ErrAbortHandler) // net/http's way to abort the response; not a crash
	default:
		r.skip(seq, x.skipped("the client went away mid-answer"))
	}
}

// keepOrSkip records the whole answer of x, or notes why not: the reason
// decided before it came, its length, MaxAnswers.
func (r *Recorder) keepOrSkip(x *exchange, body []byte, total int64) {
	reason := x.reason
	switch {
	case reason != "":
	case total > r.cfg.maxBody:
		reason = fmt.Sprintf("longer than MaxBody (%d bytes)", r.cfg.maxBody)
	case !r.record(x.seq, r.recorded(x, body)):
		reason = fmt.Sprintf("over MaxAnswers (%d)", r.cfg.maxAnswers)
	default:
		return
	}
	r.skip(x.seq, x.skipped(reason))
}

// intent returns the arguments of req on the configured route, and why
// it will not be recorded ("" when it will).
func (r *Recorder) intent(req *http.Request) (map[string]string, string) {
	var args map[string]string
	if r.cfg.route != nil {
		var ok bool
		if args, ok = r.cfg.route.match(req.Method, req.URL.EscapedPath()); !ok {
			return nil, "not on the route"
		}
	}
	if r.full() {
		return nil, fmt.Sprintf("over MaxAnswers (%d)", r.cfg.maxAnswers)
	}
	return args, ""
}

// recorded returns the Answer of x, whose body is body.
func (r *Recorder) recorded(x *exchange, body []byte) Answer {
	return Answer{
		Method:    x.req.Method,
		Path:      x.req.URL.EscapedPath(),
		RawQuery:  redactQuery(x.req.URL.RawQuery),
		Arguments: x.args,
		Status:    x.resp.StatusCode,
		Header:    keptHeader(x.resp.Header),
		Body:      body,
		Note:      noteFor(x.resp, body),
	}
}

// outgoing returns the upstream request for req: the upstream's scheme
// and host, its path joined with req's, req's query, method, body and
// end-to-end headers.
func (r *Recorder) outgoing(ctx context.Context, req *http.Request) (*http.Request, error) {
	if req.Method == http.MethodConnect || !strings.HasPrefix(req.URL.EscapedPath(), "/") {
		return nil, errors.New("only origin-form requests are forwarded")
	}
	target := *r.cfg.upstream
	target.RawPath = strings.TrimSuffix(r.cfg.upstream.EscapedPath(), "/") + req.URL.EscapedPath()
	path, err := url.PathUnescape(target.RawPath)
	if err != nil {
		return nil, errors.New("the request path does not decode")
	}
	target.Path, target.RawQuery = path, req.URL.RawQuery
	body := req.Body
	if req.ContentLength == 0 {
		body = http.NoBody
	}
	out, err := http.NewRequestWithContext(ctx, req.Method, target.String(), body)
	if err != nil {
		return nil, errors.New("the request cannot be forwarded")
	}
	out.ContentLength = req.ContentLength
	out.Header = endToEnd(req.Header)
	if _, ok := out.Header["User-Agent"]; !ok {
		out.Header["User-Agent"] = []string{""} // send none rather than Go's
	}
	return out, nil
}

// gatewayFailure returns the status and reason for an exchange the
// upstream did not answer: 504 for a timeout, 502 otherwise. The reason
// never holds the error's text, which may quote the URL and its query.
func gatewayFailure(err error) (int, string) {
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
		return http.StatusGatewayTimeout, "the upstream did not answer in time"
	}
	if errors.Is(err, context.Canceled) {
		return http.StatusBadGateway, "the client went away before the upstream answered"
	}
	return http.StatusBadGateway, "the upstream could not be reached"
}

// limitConnection bounds reading the request and writing the answer on
// the client's connection, where the server lets a handler do so.
func limitConnection(w http.ResponseWriter, d time.Duration) {
	rc := http.NewResponseController(w)
	deadline := time.Now().Add(d)
	_ = rc.SetReadDeadline(deadline)  // ErrNotSupported leaves it to the server
	_ = rc.SetWriteDeadline(deadline) // likewise
}
