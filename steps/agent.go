package steps

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
)

// callTool programs the mock with the scenario's answers, then calls tool
// on the lane's target as the agent would, with the profile's token, and
// keeps what the agent saw.
func (w *world) callTool(ctx context.Context, tool string, args []byte) error {
	if err := w.mapped(tool); err != nil {
		return err
	}
	agent := w.suite.agent()
	return w.send(ctx, tool, args, func(cctx context.Context, inst targets.Instance) (harness.Output, error) {
		return agent.Call(cctx, inst, tool, args, w.token())
	})
}

// token is the bearer token of the scenario's session.
func (w *world) token() string {
	if w.session != "" {
		return w.session
	}
	return w.suite.Profile.Token
}

// send makes one agent call with do and records it: the scenario's latest
// call is w.call, every call is in w.calls (the leak scan reads them all).
func (w *world) send(ctx context.Context, tool string, args []byte, do harness.Send) error {
	if err := w.lane.Program(w.routeList()); err != nil {
		return err
	}
	hc, err := w.lane.Call(ctx, tool, args, w.suite.Profile.CallTimeout(), do)
	c := &call{Call: hc}
	w.call = c
	w.calls = append(w.calls, c)
	switch {
	case err != nil || ctx.Err() != nil:
		return interrupted(ctx)
	case c.Hung > 0:
		return nil // an outcome of the target, for the Then steps to judge
	case c.Err != nil:
		return w.targetFailure(ctx, c.Err)
	case c.SettleErr != nil:
		return c.SettleErr
	case c.Out.Truncated:
		return w.note(reports.EvidenceTarget, "the agent-visible %s is larger than the harness reads (%d bytes kept): an adapter must answer with a small object", c.Out.ResultWhere, len(c.Out.Result))
	}
	return nil
}

// targetFailure turns a failed call into evidence: what failed (a crash,
// an answer that is no HTTP, the error), whether the target still runs,
// and the tail of what it printed.
func (w *world) targetFailure(ctx context.Context, err error) error {
	logs := w.lane.Target.Logs()
	msg := fmt.Sprintf("calling %q on the target failed: %v", w.call.Tool, firstLine(err.Error()))
	var notHTTP *targets.NotHTTPError
	switch crash := targets.CrashLine(logs); {
	case crash != "":
		msg = fmt.Sprintf("the target crashed during the call of %q: %s", w.call.Tool, crash)
	case errors.As(err, &notHTTP):
		msg = fmt.Sprintf("the call of %q got an answer that is no HTTP: %v", w.call.Tool, firstLine(notHTTP.Error()))
	}
	msg += machineNote(w.call) + "\n" + err.Error()
	actx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	var exit *targets.ExitError
	switch aerr := w.lane.Target.Alive(actx); {
	case aerr == nil:
	case errors.As(aerr, &exit):
		msg += fmt.Sprintf("\nthe target exited during the call: %v", firstLine(aerr.Error()))
	default:
		msg += "\n" + firstLine(aerr.Error()) // says whether the process still runs
	}
	if logs != "" && !strings.Contains(err.Error(), "last output:") {
		msg += "\ntarget output (tail):\n" + tail(logs, 2048)
	}
	return w.note(reports.EvidenceTarget, "%s", msg)
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// agentSteps registers the When steps: the agent calls a tool.
func agentSteps(r *registrar) {
	r.act(`^the agent calls "([^"]*)" with (\{.*\})$`, func(ctx context.Context, tool, args string) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.callTool(ctx, tool, []byte(args))
	})
	r.act(`^the agent calls "([^"]*)" with:$`, func(ctx context.Context, tool string, doc *godog.DocString) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		args, err := w.render([]byte(doc.Content), "the scenario's arguments")
		if err != nil {
			return err
		}
		return w.callTool(ctx, tool, args)
	})
}

// exchange returns what the scenario programmed and called, and whether
// it made a call.
func (w *world) exchange() (harness.Exchange, bool) {
	if w.call == nil {
		return harness.Exchange{}, false
	}
	return harness.Exchange{Tool: w.call.Tool, Args: w.call.Args, Routes: w.routeList()}, true
}

// allExchanges returns the scenario's own exchange, if it made a call,
// then those of the generated variants it ran.
func (w *world) allExchanges() []harness.Exchange {
	if x, ok := w.exchange(); ok {
		return append([]harness.Exchange{x}, w.variantExchanges...)
	}
	return w.variantExchanges
}

// mapped checks, on an MCP server, that a corpus tool maps to a tool the
// server lists: a missing one is the target's failure, not a refusal. A
// name the corpus does not know goes to the server as it is (scenarios call
// unknown tools on purpose).
func (w *world) mapped(tool string) error {
	mi, ok := w.lane.Target.(targets.MCPInstance)
	if !ok {
		return nil
	}
	if _, err := w.suite.tool(tool); err != nil {
		return nil
	}
	_, err := w.mcpTool(mi, tool)
	return err
}
