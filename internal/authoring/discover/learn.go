package discover

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcert/toolcert/reports"
)

// mapping is what one call of a tool taught: the upstream request it is
// the tool's, which argument lands where, what the tool shows of the
// answer, and the other requests it needs answered.
type mapping struct {
	// Primary is the request whose answer the tool shows.
	Primary request
	// Method and Template are the tool's route: the operation's, or, for
	// an answer of a real upstream that matched none, the request's path
	// with each segment an argument's value carried written {argument}.
	Method, Template string
	// FromDescription says the route is an operation of the description.
	FromDescription bool
	// Params maps a parameter of the operation (path or query) onto the
	// tool argument whose value it carried.
	Params map[string]string
	// Values are the parameters' values in the primary request.
	Values map[string]string
	// Query are the query parameters of the primary request that the
	// operation declares.
	Query []string
	// Others are the tool's other requests that carried an argument: their
	// answers are served as side routes.
	Others []request
	// View is how the tool shows the primary answer.
	View view
}

// learn reads one call: the requests it sent (reqs) and its result.
// A tool whose call made no request, failed, sent a write (anything but
// GET and HEAD, or a POST from a tool annotated read-only), or showed
// nothing of any answer is left out, and the error says why.
func learn(args callArguments, reqs []request, res *mcp.CallToolResult, readOnly bool) (*mapping, error) {
	if len(reqs) == 0 {
		if text, _ := firstText(res); res.IsError {
			return nil, fmt.Errorf("%w: the tool failed before any: %s", errNoRequest, clip(text, 200))
		}
		return nil, errNoRequest
	}
	for _, r := range reqs {
		switch {
		case r.Method == http.MethodGet || r.Method == http.MethodHead:
		case r.Method == http.MethodPost && readOnly:
			// a read sent as a POST (a query API's form or search body),
			// by a tool annotated read-only
		default:
			return nil, fmt.Errorf("a write tool: it sent %s", r.describe())
		}
	}
	if res.IsError {
		text, _ := firstText(res)
		return nil, fmt.Errorf("the tool failed on the description's answer to %s: %s", reqs[0].describe(), clip(text, 200))
	}
	var carrying []request
	for _, r := range reqs {
		if known(r) && len(carried(r, args)) > 0 {
			carrying = append(carrying, r)
		}
	}
	if len(carrying) == 0 {
		for _, r := range reqs {
			if known(r) && !slices.ContainsFunc(carrying, func(c request) bool { return c.key() == r.key() }) {
				carrying = append(carrying, r)
			}
		}
	}
	if len(carrying) == 0 {
		var names []string
		for _, r := range reqs {
			names = append(names, r.describe())
		}
		return nil, fmt.Errorf("no request matched an operation of the description: %s", strings.Join(names, ", "))
	}
	m := &mapping{}
	best := -1
	var lastErr error
	for _, r := range carrying {
		if r.Answer.Status < 200 || r.Answer.Status > 299 {
			continue
		}
		v, err := inferView(r.Answer.Body, res)
		if err != nil {
			lastErr = fmt.Errorf("%s: %w", r.describe(), err)
			continue
		}
		if n := len(v.Shown); n > best {
			best, m.Primary, m.View = n, r, v
		}
	}
	if best < 0 {
		if lastErr == nil {
			lastErr = fmt.Errorf("no request got a success to show")
		}
		return nil, lastErr
	}
	for _, r := range carrying {
		if r.key() != m.Primary.key() {
			m.Others = append(m.Others, r)
		}
	}
	m.FromDescription = m.Primary.Op.Path != ""
	if !m.FromDescription {
		m.Primary.Params = templated(&m.Primary, args)
	}
	m.Method, m.Template = m.Primary.Op.Method, m.Primary.Op.Path
	m.Params, m.Values, m.Query = params(m.Primary, args)
	return m, nil
}

// known reports whether a request may be a tool's own: it matched an
// operation of the description, or a real upstream answered it.
func known(r request) bool { return r.Op.Path != "" || r.Answer.Real }

// templated writes r's route from its path, each segment that is an
// argument's value as {argument} (the argument's name as the parameter's),
// sets it as r's operation, and returns the segments' values.
func templated(r *request, args callArguments) map[string]string {
	values := map[string]string{}
	segs := strings.Split(r.Path, "/")
	for i, seg := range segs {
		for _, name := range sortedKeys(args.Text) {
			if seg != "" && args.Text[name] == seg && args.Types[name] != "boolean" && values[name] == "" && identifier.MatchString(name) {
				segs[i] = "{" + name + "}"
				values[name] = seg
				break
			}
		}
	}
	r.Op.Method, r.Op.Path = r.Method, strings.Join(segs, "/")
	return values
}

// carried returns the arguments whose value the request carries, in a
// path segment or a query value.
func carried(r request, args callArguments) []string {
	var out []string
	segs := strings.Split(r.Path, "/")
	q, _ := url.ParseQuery(r.Query)
	for _, name := range sortedKeys(args.Text) {
		v := args.Text[name]
		if v == "" || args.Types[name] == "boolean" {
			continue
		}
		found := slices.Contains(segs, v)
		for _, vs := range q {
			found = found || slices.Contains(vs, v)
		}
		if found {
			out = append(out, name)
		}
	}
	return out
}

// params maps the primary request's path and query parameters onto the
// arguments whose values they carried, and returns their values.
func params(r request, args callArguments) (byParam, values map[string]string, query []string) {
	byParam, values = map[string]string{}, map[string]string{}
	owner := func(v string) string {
		for _, name := range sortedKeys(args.Text) {
			if args.Text[name] == v && args.Types[name] != "boolean" {
				return name
			}
		}
		return ""
	}
	for p, v := range r.Params {
		values[p] = v
		if a := owner(v); a != "" {
			byParam[p] = a
		}
	}
	q, _ := url.ParseQuery(r.Query)
	for _, k := range sortedKeys(q) {
		if len(q[k]) != 1 {
			continue
		}
		query = append(query, k)
		values[k] = q[k][0]
		if a := owner(q[k][0]); a != "" {
			byParam[k] = a
		}
	}
	return byParam, values, query
}

// clip cuts s, text the server or the upstream wrote, to n bytes of one
// printable line for a message (line).
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + "..."
	}
	return line(s)
}

// line makes s, text the server or the upstream wrote (a name, an error,
// a path), one line a terminal, a Markdown table and a YAML comment show
// as text: white space runs become one space, and what a terminal acts on
// is escaped (reports.Printable).
func line(s string) string {
	return reports.Printable(strings.Join(strings.Fields(s), " "))
}
