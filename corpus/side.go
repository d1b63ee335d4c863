package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
)

// SideRoutesFile is the corpus's file, beside the tool folders, of the
// answers the upstream gives on routes no tool maps to (docs/fixtures.md,
// "Side routes").
const SideRoutesFile = "routes.json"

// SideRoute is an answer the upstream gives on a route no tool maps to: a
// discovery route a client asks before any call (a cluster API's /api and
// /apis), a capability probe, a whoami. The harness serves it on every lane
// for the whole run, behind whatever a scenario or a case programs.
type SideRoute struct {
	// Method is the request method, or "*" for any.
	Method string `json:"method"`
	// Path is the path exactly; Pattern, a regular expression (Go's
	// syntax) the whole path must match, when there is no Path. One of the
	// two.
	Path    string `json:"path,omitempty"`
	Pattern string `json:"pattern,omitempty"`
	// Status is the answer's status (200 when 0).
	Status int `json:"status,omitempty"`
	// Headers are the answer's headers. Without a Content-Type one, the
	// body's kind gives it: application/json for Body, text/plain for
	// Text, the file's extension for File.
	Headers map[string]string `json:"headers,omitempty"`
	// Body is a JSON value served as it is written; Text, text served as
	// it is; File, a file of the corpus (relative to its root) served byte
	// for byte. At most one; none is an empty body. Placeholders are not
	// rendered: a side route answers the same for the whole run.
	Body json.RawMessage `json:"body,omitempty"`
	Text string          `json:"text,omitempty"`
	File string          `json:"file,omitempty"`
	// Why says, for a person, what asks the route.
	Why string `json:"why,omitempty"`
}

// sideRoutes is the document of SideRoutesFile.
type sideRoutes struct {
	Routes []SideRoute `json:"routes"`
}

// SideRoutes returns the corpus's side routes, in the order its file lists
// them (the first that matches a request answers it); none when it has no
// SideRoutesFile. A route that does not check (see SideRoute.Check) is an
// error.
func (c *Corpus) SideRoutes() ([]SideRoute, error) {
	if _, err := fs.Stat(c.fsys, SideRoutesFile); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var doc sideRoutes
	if err := c.decode(SideRoutesFile, &doc); err != nil {
		return nil, err
	}
	for i, r := range doc.Routes {
		if err := r.Check(c); err != nil {
			return nil, fmt.Errorf("%s: /routes/%d: %w", SideRoutesFile, i, err)
		}
	}
	return doc.Routes, nil
}

// Check reports what is wrong with r: no method, neither or both of a
// path and a pattern, a path that does not start with /, a pattern that
// does not compile, a status outside 100-599, more than one body, a Body
// that is not one JSON value, a File c does not hold.
func (r SideRoute) Check(c *Corpus) error {
	bodies := 0
	for _, set := range []bool{len(r.Body) > 0, r.Text != "", r.File != ""} {
		if set {
			bodies++
		}
	}
	switch {
	case r.Method == "" || strings.ContainsAny(r.Method, " \t\r\n"):
		return fmt.Errorf("method %q: want GET, POST..., or * for any", r.Method)
	case (r.Path == "") == (r.Pattern == ""):
		return errors.New("want a path or a pattern, one of the two")
	case r.Path != "" && !strings.HasPrefix(r.Path, "/"):
		return fmt.Errorf("path %q: want one that starts with /", r.Path)
	case r.Status != 0 && (r.Status < 100 || r.Status > 599):
		return fmt.Errorf("status %d is not an HTTP status (100 to 599)", r.Status)
	case bodies > 1:
		return errors.New("want at most one of body, text and file")
	case len(r.Body) > 0 && !json.Valid(r.Body):
		return errors.New("body is not one JSON value")
	}
	if r.Pattern != "" {
		if _, err := regexp.Compile(r.Pattern); err != nil {
			return fmt.Errorf("pattern: %w", err)
		}
	}
	if r.File != "" {
		if _, err := c.Fixture(r.File); err != nil {
			return fmt.Errorf("file: %w", err)
		}
	}
	return nil
}

// Answer returns the side route's status, headers (with the Content-Type
// its body's kind gives when it names none) and body bytes; the caller
// has checked r.
func (r SideRoute) Answer(c *Corpus) (status int, headers map[string]string, body []byte, err error) {
	status = r.Status
	if status == 0 {
		status = 200
	}
	headers = map[string]string{}
	for k, v := range r.Headers {
		headers[k] = v
	}
	contentType := ""
	switch {
	case len(r.Body) > 0:
		body, contentType = slices.Clone([]byte(r.Body)), "application/json"
	case r.Text != "":
		body, contentType = []byte(r.Text), "text/plain; charset=utf-8"
	case r.File != "":
		if body, err = c.Fixture(r.File); err != nil {
			return 0, nil, nil, err
		}
		contentType = ContentType(r.File)
	}
	hasType := false
	for k := range headers {
		hasType = hasType || strings.EqualFold(k, "Content-Type")
	}
	if !hasType && contentType != "" {
		headers["Content-Type"] = contentType
	}
	return status, headers, body, nil
}
