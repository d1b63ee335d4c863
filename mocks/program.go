package mocks

import (
	"fmt"
	"net/http"
	"strings"
)

// sequence hands out the responses programmed for one route.
type sequence struct {
	steps  []Response
	i      int // index of the current step
	served int // how often the current step was served
}

// newSequence validates seq and returns a sequence of private copies.
func newSequence(seq []Response) (*sequence, error) {
	steps := make([]Response, len(seq))
	for i, r := range seq {
		if err := r.Validate(); err != nil {
			return nil, fmt.Errorf("response %d: %w", i, err)
		}
		steps[i] = r.clone()
	}
	return &sequence{steps: steps}, nil
}

// next returns the response to serve now and moves the sequence on; the
// last step repeats.
func (s *sequence) next() Response {
	r := s.steps[s.i]
	s.served++
	if s.served >= r.times() && s.i < len(s.steps)-1 {
		s.i++
		s.served = 0
	}
	return r
}

// Program makes requests for method and path (exact match on the decoded
// path, query ignored) answer with seq[0], then seq[1], and so on; each
// response is served Response.Times times and the last one repeats.
// Programming a route again replaces its sequence and starts it over;
// Program with no responses forgets the route. Errors wrap ErrInvalidRoute
// or ErrInvalidResponse and leave the program unchanged.
func (u *Upstream) Program(method, path string, seq ...Response) error {
	key, err := routeKey(method, path)
	if err != nil {
		return err
	}
	s, err := newSequence(seq)
	if err != nil {
		return fmt.Errorf("program %s: %w", key, err)
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(seq) == 0 {
		delete(u.routes, key)
		return nil
	}
	u.routes[key] = s
	return nil
}

// Fallback makes every unprogrammed route that no side route takes answer
// with seq, shared by all such routes, as Program does for one route
// (toolcert replay uses it). Fallback with no responses removes it:
// unprogrammed routes then get 501 with the text of NotProgrammed, and
// Entry.Unprogrammed. Errors wrap ErrInvalidResponse.
func (u *Upstream) Fallback(seq ...Response) error {
	s, err := newSequence(seq)
	if err != nil {
		return fmt.Errorf("program fallback: %w", err)
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.fallback = nil
	if len(seq) > 0 {
		u.fallback = s
	}
	return nil
}

// pick chooses the response for a request and names the route that gave
// it. The caller holds u.mu.
func (u *Upstream) pick(method, path string) (r Response, route string, programmed bool) {
	key := method + " " + path
	if s, ok := u.routes[key]; ok {
		return s.next(), key, true
	}
	for _, s := range u.side {
		if s.matches(method, path) {
			return s.Response, s.name(), true
		}
	}
	if u.fallback != nil {
		return u.fallback.next(), FallbackRoute, true
	}
	return Text(http.StatusNotImplemented, NotProgrammed), "", false
}

// NotProgrammed is the body of the 501 the mock answers a request no
// route, side route or fallback takes (text/plain).
const NotProgrammed = "toolcert mock: no response programmed for this route\n"

// routeKey validates a route and returns its journal name.
func routeKey(method, path string) (string, error) {
	if method == "" || strings.ContainsAny(method, " \t\r\n") {
		return "", fmt.Errorf("program method %q: %w", method, ErrInvalidRoute)
	}
	if !strings.HasPrefix(path, "/") {
		return "", fmt.Errorf("program path %q: must start with /: %w", path, ErrInvalidRoute)
	}
	return method + " " + path, nil
}
