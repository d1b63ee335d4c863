package steps

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
)

// What the agent saw of a call, as the safe level compares it with what it
// saw of the honest answer (docs/protocol.md, "Levels"): every part of the
// agent-visible output, but what changes from call to call whatever the
// upstream said. Left out are the protocol's own per-call parts (the
// envelope's request_id, the MCP result's _meta request id, the Date and
// Content-Length headers) and the tool map's volatile pointers and
// patterns. A part that is JSON is compared by its value: member order and
// white space do not count.

// viewPart is one agent-visible part as the comparison reads it.
type viewPart struct {
	where, text string
}

// volatileText replaces each match of a volatile pattern.
const volatileText = "<volatile>"

// framing are the header parts no answer's meaning is in.
var framing = []string{"header Date", "header Content-Length"}

// perCallPointers are the protocol's per-call members: the v1 envelope's
// request_id and the MCP result's _meta request id.
var perCallPointers = map[string][]string{
	harness.PartBody: {"/request_id"},
	"result _meta":   {"/" + judge.EscapePointerToken(protocol.MetaRequestID)},
}

// view returns what the agent saw of out, part by part, as the comparison
// reads it, with tool's map's volatile parts left out.
func (s *Suite) view(tool string, out harness.Output) []viewPart {
	m := s.toolMap(tool)
	patterns := s.volatilePatterns(tool, m.Volatile.Patterns)
	parts := make([]viewPart, 0, len(out.Parts))
	for _, p := range out.Parts {
		if slices.Contains(framing, p.Where) || m.RequestIDHeader != "" && strings.EqualFold(p.Where, "header "+m.RequestIDHeader) {
			continue
		}
		text := string(p.Data)
		if v, ok := jsonPart(p.Where, p.Data); ok {
			for _, ptr := range append(perCallPointers[p.Where], m.Volatile.Pointers...) {
				v = dropPointer(v, judge.PointerTokens(ptr))
			}
			if b, err := json.Marshal(v); err == nil {
				text = string(b)
			}
		}
		for _, re := range patterns {
			text = re.ReplaceAllString(text, volatileText)
		}
		parts = append(parts, viewPart{where: p.Where, text: text})
	}
	return parts
}

// jsonPart parses the data of a part that may carry JSON (a body, the
// structured content, _meta, a text block) and reports whether it is.
func jsonPart(where string, data []byte) (any, bool) {
	switch {
	case where == harness.PartBody, where == "structuredContent", where == "result _meta", strings.HasPrefix(where, "content["):
	default:
		return nil, false
	}
	v, err := judge.ParseJSON(data, agentLimits)
	return v, err == nil
}

// dropPointer removes the member the pointer's tokens name from v, every
// member or element for a token "*", and returns v.
func dropPointer(v any, toks []string) any {
	if len(toks) == 0 {
		return v
	}
	tok, rest := toks[0], toks[1:]
	switch n := v.(type) {
	case map[string]any:
		for name, child := range n {
			if tok != "*" && name != tok {
				continue
			}
			if len(rest) == 0 {
				delete(n, name)
			} else {
				n[name] = dropPointer(child, rest)
			}
		}
	case []any:
		for i, child := range n {
			if tok == "*" || tok == strconv.Itoa(i) {
				n[i] = dropPointer(child, rest) // an element is never removed: the others would move
			}
		}
	}
	return v
}

// volatilePatterns compiles patterns once per tool (the tool map's check
// compiled them before the run; one that does not compile is left out).
func (s *Suite) volatilePatterns(tool string, patterns []string) []*regexp.Regexp {
	if len(patterns) == 0 {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if res, ok := s.patterns[tool]; ok {
		return res
	}
	var res []*regexp.Regexp
	for _, p := range patterns {
		if re, err := regexp.Compile(p); err == nil {
			res = append(res, re)
		}
	}
	if s.patterns == nil {
		s.patterns = map[string][]*regexp.Regexp{}
	}
	s.patterns[tool] = res
	return res
}

// viewDiff returns, for evidence, the first part where got differs from
// want, both clipped around where they part; "" when they are the same.
func viewDiff(want, got []viewPart) string {
	for i := 0; i < max(len(want), len(got)); i++ {
		switch {
		case i >= len(got):
			return "the honest answer showed " + want[i].where + " " + quoteClip(want[i].text, 0) + ", this one shows no such part"
		case i >= len(want):
			return "it shows " + got[i].where + " " + quoteClip(got[i].text, 0) + ", which the honest answer did not"
		case want[i].where != got[i].where:
			return "it shows " + got[i].where + " where the honest answer showed " + want[i].where
		case want[i].text != got[i].text:
			at := commonPrefix(want[i].text, got[i].text)
			return got[i].where + " is " + quoteClip(got[i].text, at) + ", for the honest answer " + quoteClip(want[i].text, at)
		}
	}
	return ""
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// quoteClip quotes at most 160 bytes of s around offset at.
func quoteClip(s string, at int) string {
	const before, width = 40, 160
	start := max(0, at-before)
	end := min(len(s), start+width)
	out := s[start:end]
	if start > 0 {
		out = "…" + out
	}
	if end < len(s) {
		out += "…"
	}
	return strconv.Quote(out)
}

// agentOutcome is how a call ended as the agent reads it, before any
// check of its shape: refused, accepted, or neither (no readable answer).
type agentOutcome int

const (
	outcomeUnreadable agentOutcome = iota
	outcomeRefused
	outcomeAccepted
)

// refused reads whether the call was refused: a protocol v1 envelope's
// outcome, or an MCP or HTTP tool service's failure by its tool map.
func (w *world) refused(c *call) agentOutcome {
	if c.checked && c.resErr == nil {
		switch c.res.outcome { // read already, by a check of the strict level
		case protocol.OutcomeFailure:
			return outcomeRefused
		case protocol.OutcomeSuccess:
			return outcomeAccepted
		}
	}
	if a := c.Out.Answer; a != nil {
		switch {
		case !a.Answered:
			return outcomeUnreadable
		case a.Failed:
			return outcomeRefused
		}
		return outcomeAccepted
	}
	v, err := judge.ParseJSON(c.Out.Result, agentLimits)
	if err != nil {
		return outcomeUnreadable
	}
	m, _ := v.(map[string]any)
	switch m["outcome"] {
	case protocol.OutcomeFailure:
		return outcomeRefused
	case protocol.OutcomeSuccess:
		return outcomeAccepted
	}
	return outcomeUnreadable
}

// viewOf returns the view of the latest call, or nil before any.
func (w *world) viewOf() []viewPart {
	if w.call == nil {
		return nil
	}
	return w.suite.view(w.call.Tool, w.call.Out)
}
