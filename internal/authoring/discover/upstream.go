package discover

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/toolcert/toolcert/internal/authoring/openapi"
)

// upstream is the discovery mock: it answers every request the server
// sends from the description (the matched operation's example, or one
// made from its schema with the request's path values in it) and keeps
// each request. It listens on one loopback port per way of wiring the
// server to its upstream (a variable's name, "" for the lane's own URL),
// so that the port a request came to says which wiring worked.
type upstream struct {
	desc *openapi.Description
	// real, when set, answers every request in the description's place.
	real *forwarder

	mu      sync.Mutex
	ops     map[openapi.Selector]*openapi.Operation
	reqs    []request
	values  map[string]string
	urls    map[string]string
	servers []*http.Server
}

// request is one request the server sent, and what the mock answered.
type request struct {
	// Via names the wiring it came by: a variable's name, "" the lane's
	// own URL.
	Via string
	// Method, Path (decoded) and Query are its request line's.
	Method, Path, Query string
	// Op is the operation it matched (the zero Selector: none), and
	// Params the path's values by parameter name.
	Op     openapi.Selector
	Params map[string]string
	// Answer is what the mock answered.
	Answer reply
}

// reply is an answer of the mock.
type reply struct {
	Status      int
	ContentType string
	Body        []byte
	// Made says the body was made from the schema, not the description's
	// example.
	Made bool
	// Real says a real upstream gave it.
	Real bool
}

// key names a request's route: "GET /path".
func (r request) key() string { return r.Method + " " + r.Path }

// maxRequestBody bounds what is read of a request's body.
const maxRequestBody = 1 << 20

// newUpstream starts the mock on 127.0.0.1, one port per name of vias;
// the lane's own URL ("") on listen when it is given.
func newUpstream(desc *openapi.Description, real *forwarder, vias []string, listen string) (*upstream, error) {
	u := &upstream{desc: desc, real: real, ops: map[openapi.Selector]*openapi.Operation{}, urls: map[string]string{}}
	for _, via := range vias {
		addr := "127.0.0.1:0"
		if via == "" && listen != "" {
			addr = listen // where a server already running sends its requests
		}
		l, err := net.Listen("tcp", addr)
		if err != nil {
			u.close()
			return nil, fmt.Errorf("discovery upstream: listen: %w", err)
		}
		srv := &http.Server{Handler: u.handler(via), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second}
		u.servers = append(u.servers, srv)
		u.urls[via] = "http://" + l.Addr().String()
		go func() { _ = srv.Serve(l) }()
	}
	return u, nil
}

// url returns the base URL of a wiring.
func (u *upstream) url(via string) string { return u.urls[via] }

// close stops every listener, and ends the connections a server still
// holds open after 2 s.
func (u *upstream) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for _, s := range u.servers {
		if s.Shutdown(ctx) != nil {
			_ = s.Close()
		}
	}
}

// handler answers the requests that came by via.
func (u *upstream) handler(via string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, maxRequestBody))
		req := request{Via: via, Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery}
		req.Answer = u.answer(&req, r, body)
		u.mu.Lock()
		u.reqs = append(u.reqs, req)
		u.mu.Unlock()
		if req.Answer.ContentType != "" {
			w.Header().Set("Content-Type", req.Answer.ContentType)
		}
		w.WriteHeader(req.Answer.Status)
		_, _ = w.Write(req.Answer.Body)
	})
}

// answer finds the operation of req and the answer to it.
func (u *upstream) answer(req *request, r *http.Request, body []byte) reply {
	u.mu.Lock()
	values := map[string]string{}
	for k, v := range u.values {
		values[k] = v
	}
	u.mu.Unlock()
	var matched bool
	if u.desc != nil {
		var sel openapi.Selector
		var params map[string]string
		if sel, params, matched = u.desc.Match(req.Method, req.Path); matched {
			req.Op, req.Params = sel, params
		}
	}
	switch {
	case u.real != nil:
		return u.real.forward(r, body)
	case !matched:
		return jsonReply(http.StatusNotFound, "toolcert discover: no operation of the description matches "+req.Method+" "+req.Path)
	}
	op, err := u.operation(req.Op)
	if err == nil {
		var a openapi.Answer
		for k, v := range req.Params {
			values[k] = v // the path's values before the arguments'
		}
		if a, err = op.AnswerWith(values); err == nil {
			return reply{Status: a.Status, ContentType: a.ContentType, Body: a.Body, Made: a.Made}
		}
	}
	return jsonReply(http.StatusInternalServerError, "toolcert discover: no answer for "+req.Op.String()+": "+err.Error())
}

// operation returns the description's operation of sel, read once.
func (u *upstream) operation(sel openapi.Selector) (*openapi.Operation, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if op, ok := u.ops[sel]; ok {
		return op, nil
	}
	op, err := u.desc.Operation(openapi.Selector{Method: sel.Method, Path: sel.Path})
	if err != nil {
		return nil, err
	}
	u.ops[sel] = op
	return op, nil
}

// jsonReply is a JSON answer of status: {"message": message}.
func jsonReply(status int, message string) reply {
	body, _ := json.Marshal(map[string]string{"message": message})
	return reply{Status: status, ContentType: "application/json", Body: body}
}

// mark returns where the journal stands, for since.
func (u *upstream) mark() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.reqs)
}

// since returns the requests kept after mark.
func (u *upstream) since(mark int) []request {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]request(nil), u.reqs[mark:]...)
}

// setValues makes the answers made from now on hold vals in the members
// of the same names (the call's argument values, so that an answer is
// about what the tool asked for); nil forgets them.
func (u *upstream) setValues(vals map[string]string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.values = vals
}

// wired returns the wirings requests came by, sorted.
func (u *upstream) wired() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	seen := map[string]bool{}
	for _, r := range u.reqs {
		seen[r.Via] = true
	}
	var out []string
	for v := range seen {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// errNoRequest means a tool's call sent no request to the upstream.
var errNoRequest = errors.New("no request reached the upstream")

// describe names a request for a person, in one printable line: "GET
// /path?query (operation)".
func (r request) describe() string {
	return line(r.rawDescribe())
}

// rawDescribe is describe before it is made printable.
func (r request) rawDescribe() string {
	s := r.Method + " " + r.Path
	if r.Query != "" {
		s += "?" + r.Query
	}
	if r.Op.Path != "" {
		s += " (" + strings.TrimSpace(r.Op.Method+" "+r.Op.Path) + ")"
	} else {
		s += " (no operation of the description)"
	}
	return s
}
