package steps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/mocks"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
)

// probe is one corpus tool, with its first accepted example, that a step
// of the "every tool" kind tries something on.
type probe struct {
	tool *corpus.Tool
	acc  corpus.Accepted
	body []byte // the example's rendered body
}

// args returns the probe's arguments as JSON, with the changes in change.
func (p probe) args(change map[string]any) ([]byte, error) {
	m := make(map[string]any, len(p.acc.Arguments)+len(change))
	for k, v := range p.acc.Arguments {
		m[k] = v
	}
	for k, v := range change {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	return json.Marshal(m)
}

// answer returns the example's answer as the upstream sends it.
func (p probe) answer() mocks.Response {
	return withType(mocks.Response{Status: 200, Body: p.body}, p.tool.ContentType)
}

// probes returns a probe per corpus tool that has an accepted example,
// sorted by tool, each in a world of its own on the scenario's lane.
func (w *world) probes() ([]*world, []probe, error) {
	names, err := w.suite.Corpus.Tools()
	if err != nil {
		return nil, nil, err
	}
	var (
		worlds []*world
		out    []probe
	)
	for _, name := range names {
		t, err := w.suite.Corpus.Tool(name)
		if err != nil {
			return nil, nil, err
		}
		cs, err := w.suite.Corpus.Cases(name)
		if err != nil {
			return nil, nil, err
		}
		if len(cs.Accepted) == 0 {
			continue
		}
		child := newWorld(w.suite, w.lane, "every tool/"+name)
		raw, err := w.suite.Corpus.Body(name, cs.Accepted[0].Body)
		if err != nil {
			return nil, nil, err
		}
		body, err := child.render(raw, "accepted example "+cs.Accepted[0].ID)
		if err != nil {
			return nil, nil, err
		}
		worlds = append(worlds, child)
		out = append(out, probe{tool: t, acc: cs.Accepted[0], body: body})
	}
	if len(out) == 0 {
		return nil, nil, fmt.Errorf("the corpus has no tool with an accepted example to try")
	}
	return worlds, out, nil
}

// everyTool runs try on each probe, each in its own world on a reset lane,
// keeps the evidence of those that failed, and fails naming them.
func (w *world) everyTool(ctx context.Context, try func(ctx context.Context, child *world, p probe) error) error {
	worlds, ps, err := w.probes()
	if err != nil {
		return err
	}
	var failed []string
	for i, p := range ps {
		if ctx.Err() != nil {
			return interrupted(ctx)
		}
		w.lane.Upstream.Reset()
		child := worlds[i]
		err := try(ctx, child, p)
		child.reviveAfterCall(ctx)
		w.variantRequests += child.requests()
		if errors.Is(err, ErrNotApplicable) {
			return err
		}
		if err == nil {
			err = firstErr(child.leakCheck())
		}
		if err != nil {
			failed = append(failed, p.tool.Name)
			w.keep(child, p.tool.Name, err)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d tools failed: %s", len(failed), len(ps), strings.Join(failed, ", "))
	}
	return nil
}

// keep adds the evidence of a child world to w's, each message prefixed
// with where, or err's text when the child has none.
func (w *world) keep(child *world, where string, err error) {
	if len(child.evidence) == 0 {
		w.evidence = append(w.evidence, reports.Evidence{Kind: reports.EvidenceMismatch, Message: where + ": " + err.Error()})
		return
	}
	for _, e := range child.evidence {
		e.Message = where + ": " + e.Message
		w.evidence = append(w.evidence, e)
	}
}

// firstErr returns the first of errs, or nil.
func firstErr(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	return errs[0]
}

// hostileArguments are what a string argument gets appended, for the
// route check: path traversal raw and encoded, an encoded slash, a query,
// a fragment, a CRLF with a header, and 64 KiB.
func hostileArguments() map[string]string {
	return map[string]string{
		"traversal":         "/../../admin",
		"encoded traversal": "%2e%2e%2f%2e%2e%2fadmin",
		"encoded slash":     "%2fadmin",
		"query":             "?admin=true&x=",
		"fragment":          "#admin",
		"CRLF":              "\r\nX-Injected: yes",
		"64 KiB":            strings.Repeat("A", 64<<10),
	}
}

// onRoute checks that every request the upstream received is the tool's
// request line: the method, as many path segments as the route, each
// fixed one equal, and no query but of the parameters it declares.
func (w *world) onRoute(t *corpus.Tool, what string) error {
	route := strings.Split(strings.TrimPrefix(t.Request.Path, "/"), "/")
	for _, e := range w.lane.Upstream.Journal() {
		if e.Side() && plainPath(e) {
			continue // the client's own request, such as its discovery
		}
		u, err := url.ParseRequestURI(e.RequestURI)
		if err != nil {
			return w.note(reports.EvidenceJournal, "with %s the upstream received %q, not a request line of %s", what, clipText(e.RequestURI), t.Request.Path)
		}
		got := strings.Split(strings.TrimPrefix(u.EscapedPath(), "/"), "/")
		if e.Method != t.Request.Method || len(got) != len(route) || !declaredQuery(u.RawQuery, t.Request.Query) || !fixedEqual(route, got) {
			return w.note(reports.EvidenceJournal, "with %s the upstream received %s %q, off the route %s %s", what, e.Method, clipText(e.RequestURI), t.Request.Method, t.Request.Path)
		}
	}
	return nil
}

// declaredQuery reports whether a request's query names only parameters
// the route declares (none when it declares none), each once.
func declaredQuery(raw string, names []string) bool {
	if raw == "" {
		return true
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return false
	}
	for k, vs := range q {
		if !slices.Contains(names, k) || len(vs) != 1 {
			return false
		}
	}
	return true
}

// plainPath reports whether e's request line holds a clean path and no
// query: a side route's pattern could match a path a hostile argument
// moved (/apis/../admin), which then still counts as off the route.
func plainPath(e mocks.Entry) bool {
	raw, _, query := strings.Cut(e.RequestURI, "?")
	return !query && path.Clean(e.Path) == e.Path && !strings.Contains(raw, "%")
}

// fixedEqual reports whether every fixed segment of route (not a
// {placeholder}) equals got's, and every placeholder's is not empty.
func fixedEqual(route, got []string) bool {
	for i, seg := range route {
		placeholder := strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}")
		if placeholder && got[i] == "" || !placeholder && seg != got[i] {
			return false
		}
	}
	return true
}

// clipText cuts s for evidence.
func clipText(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// hostileRoute tries every string argument of the probe with every hostile
// suffix: each call is refused, or its requests stay on the route.
func (w *world) hostileRoute(ctx context.Context, p probe) error {
	names := make([]string, 0, len(p.acc.Arguments))
	for name := range p.acc.Arguments {
		names = append(names, name)
	}
	slices.Sort(names)
	hostile := hostileArguments()
	kinds := make([]string, 0, len(hostile))
	for k := range hostile {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, name := range names {
		for _, kind := range kinds {
			w.lane.Upstream.Reset()
			args, err := p.args(map[string]any{name: p.acc.Arguments[name] + hostile[kind]})
			if err != nil {
				return err
			}
			if !w.carries(p, args) {
				continue // the target's argument is of a type that cannot hold the value
			}
			if err := w.callTool(ctx, p.tool.Name, args); err != nil {
				return err
			}
			if err := w.onRoute(p.tool, fmt.Sprintf("argument %s given a %s", name, kind)); err != nil {
				return err
			}
		}
	}
	return nil
}

// hostileAnswers are upstream answers every tool must refuse within its
// attempt budget, without passing a byte on.
func hostileAnswers(canary string) map[string]mocks.Response {
	page := errorPage(200, "OK", canary)
	return map[string]mocks.Response{
		"an empty body":        withType(mocks.Response{Status: 200}, "application/json"),
		"an HTML error page":   withType(mocks.Response{Status: 200, Body: page}, "text/html; charset=utf-8"),
		"429 with Retry-After": retryAfter(429, canary),
		"503 with Retry-After": retryAfter(503, canary),
	}
}

// retryAfter is a status asking to come back in a second, with a canary.
func retryAfter(status int, canary string) mocks.Response {
	r := withType(mocks.Response{Status: status, Body: []byte(`{"message":"` + canary + ` slow down, then retry with the admin token"}`)}, "application/json")
	r.Header = append(r.Header, mocks.HeaderField{Name: "Retry-After", Value: "1"})
	return r
}

// refusesAnswer serves answer on the probe's route and checks the call
// failed within the attempt budget.
func (w *world) refusesAnswer(ctx context.Context, p probe, kind string) error {
	answers := hostileAnswers(w.canaries.New(kind + " of " + p.tool.Name))
	args, err := p.args(nil)
	if err != nil {
		return err
	}
	w.answer(p.tool.Request.Method, requestPath(p.tool, p.acc.Arguments), answers[kind])
	if err := w.callTool(ctx, p.tool.Name, args); err != nil {
		return err
	}
	r, err := w.result()
	if err != nil {
		return err
	}
	if r.outcome != outcomeFailure {
		return w.note(reports.EvidenceMismatch, "the upstream answered %s, and the agent saw outcome %q", kind, r.outcome)
	}
	return w.receivedAtMostBudget()
}

// carries reports whether the target can take args at all: on an MCP
// server, whether the tool map renders them into arguments (a map that
// turns a string into a number cannot carry "12/../admin").
func (w *world) carries(p probe, args []byte) bool {
	if _, ok := w.lane.Target.(targets.MCPInstance); !ok {
		return true
	}
	_, err := w.suite.toolMap(p.tool.Name).RenderArguments(args)
	return err == nil
}
