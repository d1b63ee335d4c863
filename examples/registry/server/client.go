package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The client's limits: a body of at most 64 KiB, at most 3 attempts of a
// read within 2 s (writes are sent once).
const (
	maxBody     = 64 << 10
	maxAttempts = 3
	callBudget  = 2 * time.Second
)

// errTooLarge means the answer's body is past maxBody.
var errTooLarge = errors.New("the answer is larger than 64 KiB")

// statusError is an answer with another status than the route's success.
type statusError struct {
	status int
	body   []byte // at most maxBody bytes of it
}

func (e *statusError) Error() string { return fmt.Sprintf("the registry answered %d", e.status) }

// apiError is the registry's error answer, {"error": {"message", "code"}}.
type apiError struct {
	Error struct {
		Message string `json:"message"`
		Code    string `json:"code"`
	} `json:"error"`
}

// client calls the registry's HTTP API.
type client struct {
	base   string // REGISTRY_API_URL, without a trailing slash
	token  string // REGISTRY_TOKEN, sent with writes only (reads need none)
	http   *http.Client
	fixed  bool
	schema *validator
	log    *log.Logger
}

// newClient returns a client of the registry at base.
func newClient(base, token string, fixed bool, schema *validator, logger *log.Logger) *client {
	return &client{
		base:  strings.TrimSuffix(base, "/"),
		token: token,
		http: &http.Client{
			// A redirect is an answer, not an instruction: the tool never
			// leaves the registry's routes.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		fixed:  fixed,
		schema: schema,
		log:    logger,
	}
}

// request builds a request of path (its segments already escaped) and
// query, with a JSON body when body is not nil.
func (c *client) request(ctx context.Context, method, path string, query url.Values, body any) (*http.Request, error) {
	u := c.base + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, r)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "pkgyard-mcp/"+version)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if method != http.MethodGet && c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	return req, nil
}

// fetch sends a GET of path, retrying a connection failure or a 5xx
// status: at most maxAttempts attempts, until ctx is done. The caller
// closes the response's body.
func (c *client) fetch(ctx context.Context, path string, query url.Values) (*http.Response, error) {
	for attempt := 1; ; attempt++ {
		req, err := c.request(ctx, http.MethodGet, path, query, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.http.Do(req)
		retry := err != nil && ctx.Err() == nil || err == nil && resp.StatusCode >= 500
		if !retry || attempt == maxAttempts {
			return resp, err
		}
		if resp != nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, maxBody))
			resp.Body.Close()
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(attempt) * 100 * time.Millisecond):
		}
	}
}

// readBody reads at most maxBody bytes of resp's body, and fails past it.
func readBody(resp *http.Response) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxBody {
		return nil, errTooLarge
	}
	return b, nil
}

// checkAnswer refuses an answer whose status is not want (a statusError
// with the start of its body) or whose Content-Type is not JSON.
func checkAnswer(resp *http.Response, want int) error {
	if resp.StatusCode != want {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxBody))
		return &statusError{status: resp.StatusCode, body: b}
	}
	mt, params, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return fmt.Errorf("the answer's Content-Type is %q, not JSON", resp.Header.Get("Content-Type"))
	}
	for k, v := range params {
		if k != "charset" || !strings.EqualFold(v, "utf-8") {
			return fmt.Errorf("the answer's Content-Type has the parameter %s=%s", k, v)
		}
	}
	return nil
}

// decode checks body against the description's schema of the route's
// success and decodes it into out, a typed struct: what out does not
// declare is dropped. The fixed server first refuses a member named twice
// in one object; the naive one lets encoding/json keep the last value.
func (c *client) decode(body []byte, method, route string, status int, out any) error {
	if c.fixed { // DEFECT (f) in the naive server, which skips this check
		if err := checkMembers(body); err != nil {
			return err
		}
	}
	if err := checkText(body); err != nil {
		return err
	}
	schema, err := c.schema.answer(method, route, fmt.Sprint(status))
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("the answer has data after its JSON document")
	}
	if err := c.schema.validate(schema, doc, ""); err != nil {
		return err
	}
	return json.Unmarshal(body, out)
}

// getJSON reads route (as the description writes it) at path: fetch,
// check the answer, read at most maxBody bytes, decode into out.
func (c *client) getJSON(ctx context.Context, route, path string, query url.Values, out any) error {
	ctx, cancel := context.WithTimeout(ctx, callBudget)
	defer cancel()
	resp, err := c.fetch(ctx, path, query)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err := checkAnswer(resp, http.StatusOK); err != nil {
		return err
	}
	body, err := readBody(resp)
	if err != nil {
		return err
	}
	return c.decode(body, http.MethodGet, route, http.StatusOK, out)
}

// send makes one write: method at path with the JSON body (or none), and
// decodes a 200 answer into out.
func (c *client) send(ctx context.Context, method, route, path string, body, out any) error {
	ctx, cancel := context.WithTimeout(ctx, callBudget)
	defer cancel()
	req, err := c.request(ctx, method, path, nil, body)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err := checkAnswer(resp, http.StatusOK); err != nil {
		return err
	}
	b, err := readBody(resp)
	if err != nil {
		return err
	}
	return c.decode(b, method, route, http.StatusOK, out)
}
