package steps

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolcert/toolcert/mocks"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
)

// What a case keeps for the person who reads a failure: what the agent saw
// of its call, part by part, and the upstream requests it caused; and, for
// every case and scenario, a note of the requests the target made to
// routes nobody programmed.

// saw returns the agent-visible parts of the latest call, each clipped at
// reports.MaxSawBytes, invalid UTF-8 replaced; nil before any call.
func (w *world) saw() []reports.Part {
	if w.call == nil {
		return nil
	}
	parts := make([]reports.Part, 0, len(w.call.Out.Parts))
	for _, p := range w.call.Out.Parts {
		text, clipped := p.Data, 0
		if len(text) > reports.MaxSawBytes {
			text, clipped = text[:reports.MaxSawBytes], len(text)-reports.MaxSawBytes
		}
		parts = append(parts, reports.Part{Where: p.Where, Text: strings.ToValidUTF8(string(text), string(utf8.RuneError)), Clipped: clipped})
	}
	return parts
}

// upstreamRequests returns the lane's journal since the case began at
// started, as the reports write requests.
func (w *world) upstreamRequests(started time.Time) []reports.Request {
	j := w.lane.Upstream.Journal()
	out := make([]reports.Request, 0, len(j))
	for _, e := range j {
		out = append(out, reports.Request{Method: e.Method, Path: e.Path, Status: e.Served.Status, Route: e.Route,
			AfterMS: max(0, e.At.Sub(started).Milliseconds())})
	}
	return out
}

// noteUnprogrammed records, as a note, the requests the target made to
// routes nobody programmed (the mock answered 501), and reports whether
// there were any.
func (w *world) noteUnprogrammed() bool {
	var routes []string
	plain := "" // the first asked on a plain path, such as a discovery route
	count := map[string]int{}
	for _, e := range w.lane.Upstream.Journal() {
		if !e.Unprogrammed {
			continue
		}
		key := e.Method + " " + e.Path
		if count[key] == 0 {
			routes = append(routes, key)
		}
		count[key]++
		if plain == "" && plainPath(e) {
			plain = key
		}
	}
	if len(routes) == 0 {
		return false
	}
	for i, r := range routes {
		if n := count[r]; n > 1 {
			routes[i] = fmt.Sprintf("%s (%d times)", r, n)
		}
	}
	w.evidence = append(w.evidence, reports.Evidence{Kind: reports.EvidenceNote,
		Message: fmt.Sprintf("the target asked routes nobody programmed, which the mock answered %d %q: %s (a route the upstream answers on the side, such as a discovery route, goes in the corpus's routes.json)",
			501, strings.TrimSpace(mocks.NotProgrammed), strings.Join(routes, ", "))})
	if plain != "" { // a path a hostile argument moved is the scenario's own finding
		w.suite.warnOnce("unprogrammed", fmt.Sprintf("warning: the target asked routes nobody programmed (first %s), which the mock answers 501: a client that asks a route of its own (a discovery, a whoami) and keeps its failure fails every later call too; declare the upstream's answers on such routes in the corpus's routes.json (docs/fixtures.md, \"Side routes\")",
			plain))
	}
	return true
}

// askedDuring says, for the evidence of call c, which the harness stopped
// waiting for, what the upstream received during it and when, from the
// call's start: "; meanwhile the upstream received 4 requests: GET /x 503
// at 0s, 1s, 3s, 7s". It warns once a run when the last came after the
// profile's deadline: the target was still asking the upstream when an
// adapter of that profile has given up, so its retries (or its waits for
// Retry-After) outlast what the profile declares.
func (w *world) askedDuring(c *call) string {
	var got []mocks.Entry
	for _, e := range w.lane.Upstream.Journal() {
		if !e.At.Before(c.Started) {
			got = append(got, e)
		}
	}
	if len(got) == 0 {
		return "; the upstream received no request during the call"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "; meanwhile the upstream received %d request(s):", len(got))
	prev := ""
	for i, e := range got {
		if i == maxListedRequests {
			fmt.Fprintf(&b, " … and %d more", len(got)-i)
			break
		}
		at := roundTime(e.At.Sub(c.Started).Truncate(time.Millisecond))
		if key := fmt.Sprintf("%s %s %d", e.Method, clipText(e.Path), e.Served.Status); key != prev {
			if prev != "" {
				b.WriteString(";")
			}
			fmt.Fprintf(&b, " %s at %v", key, at)
			prev = key
		} else {
			fmt.Fprintf(&b, ", %v", at)
		}
	}
	deadline := time.Duration(w.suite.Profile.Deadline)
	if last := got[len(got)-1].At.Sub(c.Started); deadline > 0 && last > deadline {
		fmt.Fprintf(&b, " (the last %v after the call began, past the profile's deadline of %v: the target was still asking)", roundTime(last.Truncate(time.Millisecond)), deadline)
		w.suite.warnOnce("still-asked", fmt.Sprintf("warning: a call got no answer within the call timeout (%v) while the target was still asking the mock upstream %v after the call began, past the profile's deadline (%v): its retries or its waits for Retry-After outlast the profile; write a profile with the target's own limits (--profile, docs/profile.md) so that its calls are judged by them",
			c.Hung, roundTime(last.Truncate(time.Millisecond)), deadline))
	}
	return b.String()
}

// maxListedRequests is how many upstream requests a message lists.
const maxListedRequests = 12

// logMark is where the output of inst ends now, for logsSince; 0 for an
// instance whose output cannot be read from a mark.
func logMark(inst targets.Instance) int64 {
	if c, ok := inst.(targets.LogCursor); ok {
		_, mark := c.LogsSince(-1)
		return mark
	}
	return 0
}

// logsSince returns what inst printed after mark, at most maxOutputBytes
// of its end; "" for an instance whose output cannot be read from a mark.
func logsSince(inst targets.Instance, mark int64) string {
	c, ok := inst.(targets.LogCursor)
	if !ok {
		return ""
	}
	out, _ := c.LogsSince(mark)
	if len(out) > maxOutputBytes {
		out = "[…]" + strings.ToValidUTF8(out[len(out)-maxOutputBytes:], "")
	}
	return strings.ToValidUTF8(out, string(utf8.RuneError))
}

// maxOutputBytes bounds the target output a case or scenario keeps.
const maxOutputBytes = 16 << 10
