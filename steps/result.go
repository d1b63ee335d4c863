package steps

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
)

// agentLimits bound how the harness parses the agent-visible result.
var agentLimits = judge.Limits{MaxBytes: 1 << 20, MaxDepth: 64}

// mcpRequestID is the request_id of the envelope a success of an MCP
// target is checked in against the agent contract: MCP has no envelope.
const mcpRequestID = "req.mcp.result"

// result is the agent's tool result as the steps judge it, whatever the
// target's protocol: parsed strictly and checked against the tool's agent
// contract.
type result struct {
	outcome string // protocol.OutcomeSuccess, OutcomeFailure or OutcomePendingApproval
	data    any    // the agent data of a success
	// codeKnown tells whether the target reports a failure's code and
	// retryable flag (protocol v1 does; an MCP server only where its tool
	// map says).
	codeKnown  bool
	code       string
	retryable  bool
	requestID  string // "" when the target reports none
	approvalID string
	// prose is set when data is the text of a result the target renders
	// as prose, YAML or key: value lines (a tool map's text block that is
	// no JSON): judged by the values it holds, not by the contract.
	prose bool
}

// result reads the latest call's result, once per call, so that several
// steps asking for it record its evidence once.
func (w *world) result() (result, error) {
	c, err := w.mustCall()
	if err != nil {
		return result{}, err
	}
	if !c.checked {
		if c.Out.Answer != nil {
			c.res, c.resErr = w.readMapped(c)
		} else {
			c.res, c.resErr = w.readV1(c)
		}
		c.checked = true
	}
	return c.res, c.resErr
}

// readV1 parses a protocol v1 envelope strictly and validates it whole
// against the tool's agent contract: a result the agent cannot rely on
// fails here, whatever its outcome. A redirect fails whatever its body; an
// answer of another status than 200 whose body is no envelope fails with
// its status line first.
func (w *world) readV1(c *call) (result, error) {
	status := wrongStatus(c.Out.HTTP)
	if isRedirect(c.Out.HTTP) {
		return result{}, w.note(reports.EvidenceMismatch, "%s; its body starts %q", status, clipText(string(c.Out.Result)))
	}
	if status != "" {
		status += "; "
	}
	v, err := judge.ParseJSON(c.Out.Result, agentLimits)
	if err != nil {
		return result{}, w.note(reports.EvidenceMismatch, "%sthe agent-visible %s is not strict JSON: %v; it starts %q", status, c.Out.ResultWhere, err, tail(string(c.Out.Result), 200))
	}
	if err := w.validate(c.Tool, v, status+"the agent-visible "+c.Out.ResultWhere); err != nil {
		return result{}, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return result{}, w.note(reports.EvidenceMismatch, "%sthe agent-visible %s is not an object", status, c.Out.ResultWhere)
	}
	str := func(key string) string { s, _ := m[key].(string); return s }
	r := result{outcome: str("outcome"), data: m["data"], codeKnown: true, requestID: str("request_id"), approvalID: str("approval_id")}
	if e, ok := m["error"].(map[string]any); ok {
		r.code, _ = e["code"].(string)
		r.retryable, _ = e["retryable"].(bool)
	}
	return r, nil
}

// validate checks v, what the evidence names as what, against the agent
// contract of tool.
func (w *world) validate(tool string, v any, what string) error {
	contract, err := w.suite.contract(tool)
	if err != nil {
		return err
	}
	if err := contract.Validate(v); err != nil {
		return w.note(reports.EvidenceMismatch, "%s breaks the %q contract: %s", what, tool, oneLine(err))
	}
	return nil
}

// wrongStatus says, for evidence, that an HTTP answer has another status
// than the 200 protocol v1 answers every tool call with, and where a
// redirect points; "" for a 200 or an answer that is not HTTP. The status
// line and Location are the adapter's: clipped and made printable.
func wrongStatus(o *targets.Output) string {
	if o == nil || o.StatusCode == http.StatusOK {
		return ""
	}
	msg := "the adapter answered " + reports.Printable(clipText(o.StatusLine))
	if loc := o.Header.Values("Location"); isRedirect(o) && len(loc) > 0 {
		msg += " (Location: " + reports.Printable(clipText(loc[0])) + ")"
	}
	return msg + " where it must answer 200 with an envelope"
}

// isRedirect reports whether o is an HTTP answer of status 3xx.
func isRedirect(o *targets.Output) bool {
	return o != nil && o.StatusCode >= 300 && o.StatusCode < 400
}

// readMapped reads the answer of an MCP server or an HTTP tool service by
// the tool's map: a failure is isError or a JSON-RPC error (or the map's
// failure status or pointer); a success's data, read from where the map
// says and parsed strictly, must fit the agent contract.
func (w *world) readMapped(c *call) (result, error) {
	a := c.Out.Answer
	if !a.Answered {
		return result{}, w.note(reports.EvidenceTarget, "the target sent no answer and no error for the call of %q", c.Tool)
	}
	m := w.suite.toolMap(c.Tool)
	r := result{requestID: a.RequestID}
	if a.Failed {
		r.outcome = protocol.OutcomeFailure
		w.readCode(&r, a, m)
		return r, nil
	}
	r.outcome = protocol.OutcomeSuccess
	raw, where, err := mcpData(a, m)
	if err != nil {
		return result{}, w.note(reports.EvidenceMismatch, "%v", err)
	}
	v, err := judge.ParseJSON(raw, agentLimits)
	kind, _, _ := m.Source()
	switch {
	case err != nil && m.Result == targets.ResultPlain:
		v, err = string(raw), nil
	case err != nil && kind == targets.ResultText && !looksJSON(raw):
		r.data, r.prose = string(raw), true
		return r, nil
	}
	if err != nil {
		return result{}, w.note(reports.EvidenceMismatch, "the %s is not strict JSON: %v; it starts %q", where, err, tail(string(raw), 200))
	}
	if r.data, err = w.locate(v, m.Data, where); err != nil {
		return result{}, err
	}
	if m.Wrap != "" {
		r.data = map[string]any{m.Wrap: r.data}
	}
	if m.Compare.OmitZero || len(m.Compare.Hidden) > 0 {
		return r, nil // zero values or hidden members left out: the data check (seesData) stands in for the contract's required members
	}
	env := map[string]any{"tool": c.Tool, "request_id": mcpRequestID, "outcome": protocol.OutcomeSuccess, "data": withoutAdds(r.data, m.Compare.Adds)}
	return r, w.validate(c.Tool, env, "the agent-visible "+where+" (as the data of a success envelope)")
}

// withoutAdds returns a copy of data without the members the target adds
// of its own (the tool map's compare adds), for the contract's check.
func withoutAdds(data any, adds []string) any {
	if len(adds) == 0 {
		return data
	}
	v, err := judge.ParseJSON(mustJSON(data), agentLimits)
	if err != nil {
		return data
	}
	for _, ptr := range adds {
		v = dropPointer(v, judge.PointerTokens(ptr))
	}
	return v
}

// mustJSON encodes a value of a parsed tree, which always encodes.
func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// locate returns the value at ptr in v.
func (w *world) locate(v any, ptr, where string) (any, error) {
	if ptr == "" {
		return v, nil
	}
	got, ok := judge.Lookup(v, ptr)
	if !ok {
		return nil, w.note(reports.EvidenceMismatch, "the %s has nothing at %s, where the tool map says the data is", where, ptr)
	}
	return got, nil
}

// readCode fills r's code and retryable flag from a failure's structured
// content, where the tool map names both and they are there.
func (w *world) readCode(r *result, a *harness.Answer, m targets.ToolMap) {
	if m.Code == "" || a.Structured == nil {
		return
	}
	v, err := judge.ParseJSON(a.Structured, agentLimits)
	if err != nil {
		return
	}
	code, _ := judge.Lookup(v, m.Code)
	var okCode bool
	r.code, okCode = code.(string)
	if own, ok := m.Codes[r.code]; ok {
		r.code = own
	}
	if m.Retryable != "" {
		retry, _ := judge.Lookup(v, m.Retryable)
		var okRetry bool
		r.retryable, okRetry = retry.(bool)
		okCode = okCode && okRetry
	}
	r.codeKnown = okCode
}

// mcpData returns the bytes a success carries its data in, by the tool
// map, and names where they are.
func mcpData(a *harness.Answer, m targets.ToolMap) ([]byte, string, error) {
	kind, block, err := m.Source()
	if err != nil {
		return nil, "", err
	}
	switch kind {
	case targets.ResultStructured:
		if a.Structured == nil {
			return nil, "", fmt.Errorf("the result has no structuredContent, where the tool map says the data is")
		}
		return a.Structured, "structuredContent", nil
	default:
		if block >= len(a.Texts) {
			return nil, "", fmt.Errorf("the result has %d content blocks; the tool map reads the data from text block %d", len(a.Texts), block)
		}
		return []byte(a.Texts[block]), fmt.Sprintf("content[%d] text", block), nil
	}
}

// looksJSON reports whether text starts, past white space, as a JSON
// object or array would: such a text block is held to strict JSON, any
// other is prose.
func looksJSON(raw []byte) bool {
	t := strings.TrimLeft(string(raw), " \t\r\n")
	return strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")
}
