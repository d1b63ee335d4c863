package steps

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cucumber/godog"

	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/target"
)

// callTool programs the mock with the scenario's answers, then calls tool
// on the lane's target as the agent would, with the profile's token, and
// keeps what the agent saw.
func (w *world) callTool(ctx context.Context, tool string, args []byte) error {
	return w.send(ctx, tool, args, func(cctx context.Context, base string) (target.Output, error) {
		return w.suite.Client.Invoke(cctx, base, tool, args, w.token())
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
func (w *world) send(ctx context.Context, tool string, args []byte, do func(context.Context, string) (target.Output, error)) error {
	if err := w.program(); err != nil {
		return err
	}
	timeout := w.suite.Profile.CallTimeout()
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c := &call{tool: tool, args: args, started: time.Now(), auditFrom: auditSize(w.lane.AuditFile)}
	c.out, c.err = do(cctx, w.lane.Target.URL())
	w.call = c
	w.calls = append(w.calls, c)
	sctx, scancel := context.WithTimeout(ctx, 2*time.Second)
	defer scancel()
	settleErr := w.lane.Upstream.Settle(sctx)
	if ctx.Err() != nil {
		return interrupted(ctx)
	}
	if c.err != nil && errors.Is(c.err, target.ErrTimeout) {
		c.hung = timeout // an outcome of the target, for the Then steps to judge
		return nil
	}
	if c.err != nil {
		return w.targetFailure(ctx, c.err)
	}
	if settleErr != nil {
		return fmt.Errorf("the mock upstream did not settle after the call: %w", settleErr)
	}
	if c.out.Truncated {
		return w.note(reports.EvidenceTarget, "the agent-visible body is larger than the harness reads (%d bytes kept): an adapter must answer with a small object", len(c.out.Body))
	}
	return nil
}

// targetFailure turns a failed call into evidence: the error, whether the
// target is still alive, and the tail of what it printed.
func (w *world) targetFailure(ctx context.Context, err error) error {
	msg := fmt.Sprintf("calling %q on the target failed: %v", w.call.tool, err)
	actx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if aerr := w.lane.Target.Alive(actx); aerr != nil {
		msg += fmt.Sprintf("; the target is not alive: %v", aerr)
	}
	if logs := w.lane.Target.Logs(); logs != "" {
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

// exchange returns what the scenario programmed and called, or nil.
func (w *world) exchange() *Exchange {
	if w.call == nil {
		return nil
	}
	x := &Exchange{Tool: w.call.tool, Args: w.call.args}
	for _, rt := range w.routes {
		x.Routes = append(x.Routes, Route{Method: rt.method, Path: rt.path, Seq: rt.seq})
	}
	return x
}

// allExchanges returns the scenario's own exchange, if it made a call,
// then those of the generated variants it ran.
func (w *world) allExchanges() []*Exchange {
	if x := w.exchange(); x != nil {
		return append([]*Exchange{x}, w.variantExchanges...)
	}
	return w.variantExchanges
}
