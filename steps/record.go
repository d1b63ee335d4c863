package steps

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolcert/toolcert/mocks"
	"github.com/toolcert/toolcert/reports"
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
	return true
}
