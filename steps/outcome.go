package steps

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/reports"
)

type failure struct {
	Outcome   string
	Code      string
	Retryable bool
}

// seesFailure checks that the call failed with code and the retryable
// flag retry; for a target that reports no code (an MCP server whose tool
// map names none), only that it failed.
func (w *world) seesFailure(code, retry string) error {
	r, err := w.result()
	if err != nil {
		return err
	}
	got := failure{Outcome: r.outcome, Code: r.code, Retryable: r.retryable}
	want := failure{Outcome: protocol.OutcomeFailure, Code: code, Retryable: retry == "retryable"}
	if !r.codeKnown {
		want.Code, want.Retryable = got.Code, got.Retryable
	}
	diff := stableDiff(want, got)
	if diff == "" {
		return nil
	}
	from := len(w.evidence)
	msg := fmt.Sprintf("expected the failure %s, %s; the agent saw %s", code, retry, w.outcomeInWords(r))
	w.evidence = append(w.evidence, reports.Evidence{Kind: reports.EvidenceMismatch, Message: msg, Diff: diff})
	err = fmt.Errorf("%s (-want +got):\n%s", msg, diff)
	if got.Outcome == protocol.OutcomeFailure {
		return w.strictRule(from, err) // a failure all the same: its code and flag are protocol v1's
	}
	return err
}

// outcomeInWords says what the agent saw of a call, for evidence: "success
// with data {...}", "the failure UPSTREAM_UNAVAILABLE, retryable", "a
// failure that names no code", "the call pending approval".
func (w *world) outcomeInWords(r result) string {
	switch r.outcome {
	case protocol.OutcomeSuccess:
		if r.prose {
			return "success, the text " + quoteClip(fmt.Sprint(r.data), 0)
		}
		return "success with data " + quoteClip(string(mustJSON(r.data)), 0)
	case protocol.OutcomeFailure:
		if !r.codeKnown {
			return "a failure that names no code"
		}
		flag := "not retryable"
		if r.retryable {
			flag = "retryable"
		}
		return fmt.Sprintf("the failure %s, %s", orQuoted(r.code), flag)
	case protocol.OutcomePendingApproval:
		return "the call pending approval"
	}
	return fmt.Sprintf("the outcome %q", r.outcome)
}

func (w *world) seesSuccess(doc *godog.DocString) error {
	if doc == nil {
		return fmt.Errorf("the step needs a doc string with the expected data")
	}
	return w.seesData([]byte(doc.Content))
}

// seesData checks that the agent saw success with the data in expected,
// after rendering its placeholders: exactly, but for what the tool map's
// compare declares and the tool's optional fields; a list of values, or
// any expected data when the target renders prose, by the values the
// agent's text must hold.
func (w *world) seesData(expected []byte) error {
	rendered, err := w.render(expected, "the expected data")
	if err != nil {
		return err
	}
	want, err := judge.ParseJSON(rendered, agentLimits)
	if err != nil {
		return fmt.Errorf("the expected data in the scenario is not JSON: %w", err)
	}
	r, err := w.result()
	if err != nil {
		return err
	}
	if r.outcome != protocol.OutcomeSuccess {
		return w.note(reports.EvidenceMismatch, "the agent saw outcome %q where it should have seen success with the expected data (%s)", r.outcome, w.sawClip())
	}
	var diff string
	cmpr := w.suite.comparisonOf(w.call.Tool)
	want = cmpr.withoutHidden("", want)
	_, list := want.([]any)
	switch text, prose := r.data.(string); {
	case prose && r.prose:
		diff = valuesDiff(want, text)
	case list:
		diff = valuesDiff(want, strings.Join(corpus.LeafTexts(r.data), "\n"))
	default:
		diff = cmpr.dataDiff(want, r.data)
	}
	if diff != "" {
		w.evidence = append(w.evidence, reports.Evidence{Kind: reports.EvidenceMismatch,
			Message: "the agent did not see the expected data: " + firstLine(diff), Diff: diff})
		return fmt.Errorf("the agent's data differs:\n%s", diff)
	}
	return nil
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// ownRequestID checks that the request_id the agent saw follows the
// protocol's pattern and was not taken from anything the upstream sent.
// It does not apply to a target whose results carry no request id.
func (w *world) ownRequestID() error {
	r, err := w.result()
	if err != nil {
		return err
	}
	id := r.requestID
	if id == "" && w.call.Out.Answer != nil {
		return notApplicable("the target's results carry no request id")
	}
	if !protocol.ValidRequestID(id) {
		return w.note(reports.EvidenceMismatch, "request_id %q does not match %s", id, protocol.RequestIDPattern)
	}
	for _, rt := range w.routes {
		for _, r := range rt.Seq {
			if bytes.Contains(r.Body, []byte(id)) {
				return w.note(reports.EvidenceMismatch, "request_id %q was taken from the upstream's answer to %s %s", id, rt.Method, rt.Path)
			}
		}
	}
	return nil
}

// quoted is the pattern of a step's quoted text: any characters, a quote
// or a backslash written with a backslash before it (\" and \\).
const quoted = `"((?:[^"\\]|\\.)+)"`

// unquote undoes quoted's escapes.
func unquote(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// docText is a doc string's content; "" when the step has none.
func docText(doc *godog.DocString) string {
	if doc == nil {
		return ""
	}
	return doc.Content
}

// contains checks that some agent-visible part holds s, exactly.
func (w *world) contains(s string) error {
	c, err := w.mustCall()
	if err != nil {
		return err
	}
	if s == "" {
		return fmt.Errorf("the step needs the text to look for")
	}
	for _, p := range c.Out.Parts {
		if strings.Contains(string(p.Data), s) {
			return nil
		}
	}
	return w.note(reports.EvidenceMismatch, "no part of what the agent saw holds %q; it saw %s", s, w.sawClip())
}

// failsWithCodeIfShown checks that the call failed and, when the target
// shows a code (where its tool map says), that it is code: a code of
// protocol v1, so a wrong one fails at level strict only.
func (w *world) failsWithCodeIfShown(code string) error {
	r, err := w.result()
	if err != nil {
		return err
	}
	if r.outcome != protocol.OutcomeFailure {
		return w.note(reports.EvidenceMismatch, "expected a failure; the agent saw %s", w.outcomeInWords(r))
	}
	if !r.codeKnown || r.code == code {
		return nil
	}
	from := len(w.evidence)
	return w.strictRule(from, w.note(reports.EvidenceMismatch, "expected a failure of code %s, or none shown; the agent saw %s", code, w.outcomeInWords(r)))
}

func (w *world) doesNotContain(s string) error {
	if s == "" {
		return fmt.Errorf("the step needs the text to look for")
	}
	c, err := w.mustCall()
	if err != nil {
		return err
	}
	needle := strings.ToLower(s)
	for _, p := range c.Out.Parts {
		if strings.Contains(strings.ToLower(string(p.Data)), needle) {
			return w.note(reports.EvidenceMismatch, "the agent's %s contains %q", p.Where, s)
		}
	}
	return nil
}

// withinBudget checks that the agent's answer came within the profile's
// deadline, plus one read timeout and a second of slack; a call the
// harness stopped waiting for did not.
func (w *world) withinBudget() error {
	if w.call == nil {
		_, err := w.mustCall()
		return err
	}
	c := w.call
	p := w.suite.Profile
	limit := time.Duration(p.Deadline) + time.Duration(p.ReadTimeout) + time.Second
	if c.Hung > 0 {
		return w.note(reports.EvidenceMismatch, "the agent got no answer within %v, when the harness stopped waiting; the adapter's time budget is %v (allowed with slack: %v)%s%s",
			c.Hung, time.Duration(p.Deadline), limit, arrived(c.Out.HTTP), w.askedDuring(c))
	}
	if c.Out.Elapsed > limit {
		return w.note(reports.EvidenceMismatch, "the agent waited %v; the adapter's time budget is %v (allowed with slack: %v)%s",
			c.Out.Elapsed.Round(time.Millisecond), time.Duration(p.Deadline), limit, arrived(c.Out.HTTP))
	}
	return nil
}

// outcomeSteps registers the Then steps that judge what the agent saw.
func outcomeSteps(r *registrar) {
	r.assert(`^the agent sees the failure (`+codeAlternatives()+`), (not retryable|retryable)$`, on((*world).seesFailure))
	r.assert(`^the agent sees success with data:$`, on((*world).seesSuccess))
	r.assert(`^the agent's request_id is its own$`, on((*world).ownRequestID))
	r.assert(`^the agent's output does not contain `+quoted+`$`, on(func(w *world, s string) error { return w.doesNotContain(unquote(s)) }))
	r.assert(`^the agent's output does not contain:$`, on(func(w *world, doc *godog.DocString) error { return w.doesNotContain(docText(doc)) }))
	r.assert(`^the agent's text contains `+quoted+`$`, on(func(w *world, s string) error { return w.contains(unquote(s)) }))
	r.assert(`^the agent's text contains:$`, on(func(w *world, doc *godog.DocString) error { return w.contains(docText(doc)) }))
	r.assert(`^the call fails, and its code is (`+codeAlternatives()+`) or the server shows no code$`, on((*world).failsWithCodeIfShown))
	r.assert(`^the agent got its answer within the adapter's time budget$`, on((*world).withinBudget))
}

// codeAlternatives is the protocol's error codes as a regular expression's
// alternatives: CODE|CODE|...
func codeAlternatives() string {
	var codes []string
	for _, c := range protocol.Codes() {
		codes = append(codes, regexp.QuoteMeta(string(c)))
	}
	return strings.Join(codes, "|")
}

// oneLine folds a multi-line message (a validator's, say) into one line,
// so the first line of an error says what is wrong.
func oneLine(err error) string {
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- "))
	}
	return strings.Join(lines, "; ")
}
