package steps

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/mocks"
	"github.com/toolcert/toolcert/protocol"
)

// answer appends r to the answers of method path, plants the canaries every
// programmed response carries (a vendor header and the reason phrase) and
// makes r the response later modifier steps change.
func (w *world) answer(method, path string, r mocks.Response) {
	if r.Status == 0 {
		r.Status = http.StatusOK
	}
	where := method + " " + path
	r.Reason = strings.TrimSpace(http.StatusText(r.Status) + " " + w.canaries.New("reason phrase of "+where))
	r.Header = append(r.Header, mocks.HeaderField{Name: "X-Vendor-Trace", Value: w.canaries.New("header X-Vendor-Trace of " + where)})
	var rt *harness.Route
	for _, x := range w.routes {
		if x.Method == method && x.Path == path {
			rt = x
		}
	}
	if rt == nil {
		rt = &harness.Route{Method: method, Path: path}
		w.routes = append(w.routes, rt)
	}
	rt.Seq = append(rt.Seq, r)
	w.last = &rt.Seq[len(rt.Seq)-1]
}

// withType sets the Content-Type the upstream answers with; "" sends none.
func withType(r mocks.Response, contentType string) mocks.Response {
	if contentType != "" {
		r.Header = append(r.Header, mocks.HeaderField{Name: "Content-Type", Value: contentType})
	}
	return r
}

func (w *world) answerFixture(method, path string, status int, name string) error {
	raw, err := w.suite.Corpus.Fixture(name)
	if err != nil {
		return err
	}
	body, err := w.render(raw, "fixture "+name)
	if err != nil {
		return err
	}
	w.answer(method, path, withType(mocks.Response{Status: status, Body: body}, corpus.ContentType(name)))
	return nil
}

func (w *world) answerDoc(method, path string, status int, doc *godog.DocString, contentType string) error {
	if doc == nil {
		return fmt.Errorf("the step needs a doc string with the body")
	}
	body, err := w.render([]byte(doc.Content), "the scenario's body")
	if err != nil {
		return err
	}
	if strings.HasPrefix(contentType, protocol.ContentTypeText) {
		body = append(body, '\n')
	}
	w.answer(method, path, withType(mocks.Response{Status: status, Body: body}, contentType))
	return nil
}

func (w *world) answerErrorPage(method, path string, status, times int) {
	page := errorPage(status, http.StatusText(status), w.canaries.New(fmt.Sprintf("HTML error page body of %s %s", method, path)))
	w.answer(method, path, withType(mocks.Response{Status: status, Body: page, Times: times}, "text/html; charset=utf-8"))
}

// failFirst makes method path first fail times times with status, then
// answer what the scenario programs next. The scenario does not apply when
// the adapter's attempt budget leaves no attempt after those failures.
func (w *world) failFirst(method, path string, status, times int) error {
	if times < 1 {
		return fmt.Errorf("fail %d times: want at least once", times)
	}
	if budget := w.suite.Profile.MaxAttempts; times >= budget {
		return notApplicable("the scenario needs %d failed attempts and one more, and the adapter's attempt budget (max_attempts) is %d", times, budget)
	}
	w.answerErrorPage(method, path, status, times)
	return nil
}

// pastBudget is a silence no adapter may wait out: one second past the
// longest the harness waits for a call, itself past the adapter's time
// budget with its slack. An adapter without a deadline hangs on it.
func (w *world) pastBudget() time.Duration {
	return w.suite.Profile.CallTimeout() + time.Second
}

// dribbleWithinReadTimeout dribbles the last response's body one chunk
// every half read timeout, so no silence reaches the read timeout, in
// chunks small enough that the body takes longer than pastBudget. A body
// too short for that is led by JSON whitespace.
func (w *world) dribbleWithinReadTimeout() error {
	every := time.Duration(w.suite.Profile.ReadTimeout) / 2
	if every <= 0 {
		return fmt.Errorf("dribble: the profile's read timeout %v is too short to dribble within", time.Duration(w.suite.Profile.ReadTimeout))
	}
	chunks := int(w.pastBudget()/every) + 2
	return w.modify("dribble the body", func(r *mocks.Response) error {
		if pad := chunks - len(r.Body); pad > 0 {
			r.Body = append(bytes.Repeat([]byte(" "), pad), r.Body...)
		}
		r.Fault.DribbleChunk, r.Fault.DribbleEvery = len(r.Body)/chunks, every
		return nil
	})
}

func (w *world) modify(what string, f func(r *mocks.Response) error) error {
	if w.last == nil {
		return fmt.Errorf("%s: no response programmed yet; start with a step such as `the upstream answers GET /path with fixture \"...\"`", what)
	}
	return f(w.last)
}

func (w *world) addProperty(name, pointer string) error {
	return w.modify("add a property", func(r *mocks.Response) error {
		value := w.canaries.New(fmt.Sprintf("body %s/%s (property value)", pointer, name))
		body, err := insertMember(r.Body, pointer, name, value)
		if err != nil {
			return fmt.Errorf("add property %q at %q: %w", name, pointer, err)
		}
		r.Body = body
		return nil
	})
}

func (w *world) addCanaryNamedProperty() error {
	return w.modify("add a property", func(r *mocks.Response) error {
		name := w.canaries.New("body / (property name)")
		body, err := insertMember(r.Body, "", name, true)
		if err != nil {
			return fmt.Errorf("add a property named by a canary: %w", err)
		}
		r.Body = body
		return nil
	})
}

func (w *world) setHeader(name, value string) error {
	return w.modify("set a header", func(r *mocks.Response) error {
		r.Header = append(r.Header, mocks.HeaderField{Name: name, Value: value})
		return nil
	})
}

func (w *world) setHeaderCanary(name string) error {
	return w.setHeader(name, w.canaries.New("header "+name))
}

func (w *world) delay(d time.Duration) error {
	return w.modify("delay the headers", func(r *mocks.Response) error {
		r.Fault.DelayHeaders = d
		return nil
	})
}

func (w *world) dribble(n int, every time.Duration) error {
	return w.modify("dribble the body", func(r *mocks.Response) error {
		r.Fault.DribbleChunk, r.Fault.DribbleEvery = n, every
		return nil
	})
}

func (w *world) cut(n int64) error {
	return w.modify("cut the body", func(r *mocks.Response) error {
		r.Fault.TruncateAfter = n
		return nil
	})
}

// routeList returns the routes the scenario programmed, in order.
func (w *world) routeList() []harness.Route {
	out := make([]harness.Route, 0, len(w.routes))
	for _, rt := range w.routes {
		out = append(out, *rt)
	}
	return out
}

// upstreamSteps registers the Given steps that program the mock upstream.
func upstreamSteps(r *registrar) {
	const req = `(GET|POST|PUT|PATCH|DELETE) (\S+)`
	r.arrange(`^the upstream answers `+req+` with fixture "([^"]+)"$`, on(func(w *world, m, p, name string) error {
		return w.answerFixture(m, p, http.StatusOK, name)
	}))
	r.arrange(`^the upstream answers `+req+` with status (\d{3}) and fixture "([^"]+)"$`, on(func(w *world, m, p string, status int, name string) error {
		return w.answerFixture(m, p, status, name)
	}))
	r.arrange(`^the upstream answers `+req+` with:$`, on(func(w *world, m, p string, doc *godog.DocString) error {
		return w.answerDoc(m, p, http.StatusOK, doc, protocol.ContentTypeJSON)
	}))
	r.arrange(`^the upstream answers `+req+` with status (\d{3}) and:$`, on(func(w *world, m, p string, status int, doc *godog.DocString) error {
		return w.answerDoc(m, p, status, doc, protocol.ContentTypeJSON)
	}))
	r.arrange(`^the upstream answers `+req+` with text:$`, on(func(w *world, m, p string, doc *godog.DocString) error {
		return w.answerDoc(m, p, http.StatusOK, doc, "text/plain; charset=utf-8")
	}))
	r.arrange(`^the upstream answers `+req+` with status (\d{3})$`, on(func(w *world, m, p string, status int) error {
		w.answerErrorPage(m, p, status, 1)
		return nil
	}))
	r.arrange(`^the upstream answers `+req+` with status (\d{3}) and an HTML page$`, on(func(w *world, m, p string, status int) error {
		w.answerErrorPage(m, p, status, 1)
		return nil
	}))
	r.arrange(`^the upstream first fails (\d+) times? with status (\d{3}) on `+req+`$`, on(func(w *world, times, status int, m, p string) error {
		return w.failFirst(m, p, status, times)
	}))
	r.arrange(`^the upstream fails with status (\d{3}) on every attempt but the last on `+req+`$`, on(func(w *world, status int, m, p string) error {
		if budget := w.suite.Profile.MaxAttempts; budget < 2 {
			return notApplicable("the scenario needs a retry, and the adapter's attempt budget (max_attempts) is %d", budget)
		}
		return w.failFirst(m, p, status, w.suite.Profile.MaxAttempts-1)
	}))
	r.arrange(`^the upstream resets the connection on `+req+`$`, on(func(w *world, m, p string) error {
		w.answer(m, p, mocks.Response{Fault: mocks.Fault{Reset: true}})
		return nil
	}))
	r.arrange(`^the upstream closes the connection without answering `+req+`$`, on(func(w *world, m, p string) error {
		w.answer(m, p, mocks.Response{Fault: mocks.Fault{Empty: true}})
		return nil
	}))
	r.arrange(`^the adapter does not support upstream version "([^"]+)" of "([^"]+)"$`, on((*world).unsupportedVersion))
	generatedSteps(r, req)
	modifierSteps(r)
}

// generatedSteps registers the Given steps whose bodies the harness makes
// from the adapter's profile or a size.
func generatedSteps(r *registrar, req string) {
	r.arrange(`^the upstream answers `+req+` with a body one byte past the adapter's byte limit$`, on(func(w *world, m, p string) error {
		w.answer(m, p, withType(mocks.Response{Generate: w.suite.Profile.MaxBytes + 1}, protocol.ContentTypeJSON))
		return nil
	}))
	r.arrange(`^the upstream answers `+req+` with a generated body of (\d+) bytes$`, on(func(w *world, m, p string, n int64) error {
		w.answer(m, p, withType(mocks.Response{Generate: n}, protocol.ContentTypeJSON))
		return nil
	}))
	r.arrange(`^the upstream answers `+req+` with a document nested one level past the adapter's depth limit$`, on(func(w *world, m, p string) error {
		body := nested(w.suite.Profile.MaxDepth+1, w.canaries.New("body, innermost value of a too-deep document"))
		w.answer(m, p, withType(mocks.Response{Body: body}, protocol.ContentTypeJSON))
		return nil
	}))
	r.arrange(`^the upstream answers `+req+` with a review whose reviewer is (\d+) characters long$`, on(func(w *world, m, p string, n int) error {
		c := w.canaries.New("body /reviewed_by (overlong)")
		reviewer := c + strings.Repeat("x", max(n-len(c), 0))
		body := fmt.Appendf(nil, `{"change_id": "CR-1042", "decision": "approved", "reviewed_by": %q}`+"\n", reviewer)
		w.answer(m, p, withType(mocks.Response{Body: body}, protocol.ContentTypeJSON))
		return nil
	}))
}

// modifierSteps registers the Given steps that change the response
// programmed last: planted properties, headers, timing and cuts.
func modifierSteps(r *registrar) {
	r.arrange(`^the upstream adds the property "([^"]+)" carrying a canary$`, on(func(w *world, name string) error {
		return w.addProperty(name, "")
	}))
	r.arrange(`^the upstream adds the property "([^"]+)" carrying a canary at "([^"]*)"$`, on(func(w *world, name, pointer string) error {
		return w.addProperty(name, pointer)
	}))
	r.arrange(`^the upstream adds a property named by a canary$`, on(func(w *world) error {
		return w.addCanaryNamedProperty()
	}))
	r.arrange(`^the upstream sets the header "([^"]+)" to a canary$`, on(func(w *world, name string) error {
		return w.setHeaderCanary(name)
	}))
	r.arrange(`^the upstream sets the header "([^"]+)" to "([^"]*)"$`, on(func(w *world, name, value string) error {
		return w.setHeader(name, value)
	}))
	r.arrange(`^the upstream waits (\S+) before sending headers$`, on(func(w *world, d string) error {
		v, err := time.ParseDuration(d)
		if err != nil {
			return fmt.Errorf("wait: %w", err)
		}
		return w.delay(v)
	}))
	r.arrange(`^the upstream waits past the adapter's time budget before sending headers$`, on(func(w *world) error {
		return w.delay(w.pastBudget())
	}))
	r.arrange(`^the upstream dribbles the body within the read timeout until past the time budget$`, on((*world).dribbleWithinReadTimeout))
	r.arrange(`^the upstream dribbles the body (\d+) bytes? every (\S+)$`, on(func(w *world, n int, every string) error {
		v, err := time.ParseDuration(every)
		if err != nil {
			return fmt.Errorf("dribble: %w", err)
		}
		return w.dribble(n, v)
	}))
	r.arrange(`^the upstream cuts the body after (\d+) bytes and closes$`, on(func(w *world, n int64) error {
		return w.cut(n)
	}))
}
