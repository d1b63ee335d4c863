package steps

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolcert/toolcert/canary"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/mocks"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
)

// world is the state of one scenario. It lives in the scenario's context.
type world struct {
	suite    *Suite
	lane     *harness.Lane
	canaries *canary.Set
	now      time.Time
	vars     corpus.Vars

	routes []*harness.Route // in the order the scenario programmed them
	last   *mocks.Response

	call     *call   // the latest agent call
	calls    []*call // every agent call of the scenario, in order
	session  string  // the bearer token the agent uses; "" is the profile's
	approval string  // the approval_id of the latest pending call
	// mustNotReach is set when the scenario asserts that nothing reached
	// the upstream: the run's summary counts such calls.
	mustNotReach bool
	// blockedRequests are the upstream requests seen when the scenario
	// asserted that nothing reached the upstream.
	blockedRequests int
	scanned         bool // the leak scan ran
	evidence        []reports.Evidence
	record          *Record // set when the scenario has finished

	cases           []reports.Case // generated variants run by a step
	variantRequests int            // upstream requests of those variants
	// tools are the tools the scenario listed (MCP).
	tools []*mcp.Tool
	// tried counts the argument changes an "every tool" step tried.
	tried int
	// variantExchanges are the calls of those variants.
	variantExchanges []harness.Exchange
	// caseStepErr is the error of the step that failed because its
	// generated cases failed at the level the run certifies ("" when
	// none did): the runner judges the other level from the cases.
	caseStepErr string
	// strictStepErrs are the errors of steps that failed on a rule of
	// protocol v1 beyond level safe, at level strict; strictFailed is set
	// when such a rule failed at level safe, where its step passed.
	strictStepErrs []string
	strictFailed   bool
	// judging is set in the world of a generated case, which judges each
	// level itself.
	judging bool
	// started is when the scenario began, by the wall clock; logMark,
	// where the target's output stood then (logsSince).
	started time.Time
	logMark int64
}

// call is one agent call of the scenario, what it saw, and the envelope
// check the steps made of it.
type call struct {
	*harness.Call

	checked bool // res and resErr hold the result's reading
	res     result
	resErr  error
}

type worldKey struct{}

// ErrNoScenario means a step ran outside a scenario the steps set up: a
// wiring bug in the runner, not an adapter failure.
var ErrNoScenario = errors.New("step ran without scenario state")

func from(ctx context.Context) (*world, error) {
	w, ok := ctx.Value(worldKey{}).(*world)
	if !ok {
		return nil, ErrNoScenario
	}
	return w, nil
}

func newWorld(s *Suite, lane *harness.Lane, scope string) *world {
	w := &world{suite: s, lane: lane, now: s.now(), started: time.Now()}
	w.canaries = canary.NewSet(s.Seed, scope)
	w.vars = harness.Vars(w.now, s.Profile, w.canaries)
	return w
}

// note records one piece of evidence and returns it as an error, so a step
// can fail with it in one line.
func (w *world) note(kind, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	w.evidence = append(w.evidence, reports.Evidence{Kind: kind, Message: msg})
	return errors.New(msg)
}

// render expands the placeholders of a fixture or doc string.
func (w *world) render(raw []byte, origin string) ([]byte, error) {
	return corpus.Render(raw, origin, w.vars)
}

// mustCall returns the scenario's agent call, or an error when no When step
// has called the target yet.
func (w *world) mustCall() (*call, error) {
	if w.call == nil {
		return nil, errors.New("no agent call yet: a Then step needs a When step before it")
	}
	if c := w.call; c.Hung > 0 {
		answer := "no answer"
		if o := c.Out.HTTP; o != nil && (o.StatusLine != "" || o.FirstByteAfter > 0) {
			answer = "no complete answer"
		}
		return nil, w.note(reports.EvidenceTarget, "the target gave %s to %q within %v, the harness's call timeout: the agent would still be waiting%s%s%s",
			answer, c.Tool, c.Hung, arrived(c.Out.HTTP), w.askedDuring(c), machineNote(c))
	}
	return w.call, nil
}

// machineNote says, for evidence, that the machine's connection tracking
// table was full while c ran ("" when it was not, or there is no c): new
// connections were dropped, so what failed may be the machine's.
func machineNote(c *call) string {
	if c == nil || c.Call == nil || !c.ConntrackFull {
		return ""
	}
	return "; " + harness.Shared.Describe()
}

// arrived says, for evidence, what of an HTTP answer came and when, from
// sending the call, and what its body starts with: "; not a byte of an
// answer arrived", "; the status line "HTTP/1.1 200 OK" came after 2ms,
// then 7 bytes of the body (of 120 its Content-Length announced) over 5s,
// the first after 1.004s, the last after 6.004s: ...". It is "" for a target that does not answer over HTTP.
func arrived(o *targets.Output) string {
	switch {
	case o == nil:
		return ""
	case o.StatusLine == "" && o.FirstByteAfter == 0:
		return "; not a byte of an answer arrived"
	case o.StatusLine == "":
		return fmt.Sprintf("; its first byte came after %v, and never the end of its status line and headers", roundTime(o.FirstByteAfter))
	}
	status := fmt.Sprintf("; the status line %q came after %v", clipText(o.StatusLine), roundTime(o.StatusAfter))
	if len(o.Body) == 0 {
		return status + ", then not a byte of the body"
	}
	announced := ""
	if n, err := strconv.ParseInt(o.Header.Get("Content-Length"), 10, 64); err == nil {
		announced = fmt.Sprintf(" (of the %d its Content-Length announced)", n)
	}
	when := fmt.Sprintf(", the last after %v", roundTime(o.LastByteAfter))
	if o.FirstBodyByteAfter > 0 && o.LastByteAfter > o.FirstBodyByteAfter {
		when = fmt.Sprintf(" over %v, the first after %v, the last after %v",
			roundTime(o.LastByteAfter-o.FirstBodyByteAfter), roundTime(o.FirstBodyByteAfter), roundTime(o.LastByteAfter))
	}
	return fmt.Sprintf("%s, then %d bytes of the body%s%s: %q",
		status, len(o.Body), announced, when, clipText(string(o.Body)))
}

// roundTime rounds d for evidence: to the millisecond, or to the
// microsecond below one.
func roundTime(d time.Duration) time.Duration {
	if d < time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d.Round(time.Millisecond)
}
