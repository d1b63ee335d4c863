package mocks

import (
	"fmt"
	"regexp"
)

// SideRoute is an answer the mock gives on a route no scenario programs:
// a discovery, capability or identity route a target asks on its own
// before (or beside) the tool's route. Side routes outlive Reset.
type SideRoute struct {
	// Method is the request method, or "*" for any.
	Method string
	// Path is the decoded path the request must have exactly; when it is
	// "", Pattern, which the whole decoded path must match, names the
	// route.
	Path    string
	Pattern *regexp.Regexp
	// Response is what every matching request gets (Times is ignored: a
	// side route answers the same for the whole run).
	Response Response
}

// SideRoutePrefix starts Entry.Route for a request a side route
// answered: "side GET /api".
const SideRoutePrefix = "side "

// name is the route as a journal entry names it.
func (s SideRoute) name() string {
	where := s.Path
	if where == "" {
		where = "~" + s.Pattern.String()
	}
	return SideRoutePrefix + s.Method + " " + where
}

// matches reports whether a request of method and path takes s.
func (s SideRoute) matches(method, path string) bool {
	if s.Method != "*" && s.Method != method {
		return false
	}
	if s.Path != "" {
		return s.Path == path
	}
	return s.Pattern.MatchString(path)
}

// Side sets the side routes, replacing earlier ones: a request that no
// programmed route takes is answered by the first side route it matches,
// before the fallback and the 501 of a route nobody programmed. Reset
// keeps them. Errors wrap ErrInvalidRoute or ErrInvalidResponse and leave
// the side routes unchanged.
func (u *Upstream) Side(routes ...SideRoute) error {
	side := make([]SideRoute, len(routes))
	for i, s := range routes {
		switch {
		case s.Method == "":
			return fmt.Errorf("side route %d: no method: %w", i, ErrInvalidRoute)
		case s.Path == "" && s.Pattern == nil:
			return fmt.Errorf("side route %d: neither a path nor a pattern: %w", i, ErrInvalidRoute)
		case s.Path != "" && s.Path[0] != '/':
			return fmt.Errorf("side route %d: path %q must start with /: %w", i, s.Path, ErrInvalidRoute)
		}
		if err := s.Response.Validate(); err != nil {
			return fmt.Errorf("side route %d: %w", i, err)
		}
		s.Response = s.Response.clone()
		side[i] = s
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.side = side
	return nil
}
