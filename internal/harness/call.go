package harness

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/toolcert/toolcert/targets"
)

// settleTimeout bounds the wait for the mock upstream to finish serving
// after a call.
const settleTimeout = 2 * time.Second

// Call is one agent call on a lane and what the agent saw of it.
type Call struct {
	Tool string
	Args []byte
	Out  Output
	// Err is the error of the call itself (the target refused the
	// connection, say); nil when an answer arrived.
	Err     error
	Started time.Time
	// Hung is the harness's call timeout when the target gave no answer
	// within it (the agent would still be waiting); zero otherwise. Out
	// then holds what arrived before the harness stopped waiting: of an
	// HTTP answer (Out.HTTP), the status line, the body bytes read and
	// when each came.
	Hung time.Duration
	// AuditFrom is the size of the audit log before the call: the call's
	// event comes after it.
	AuditFrom int64
	// SettleErr is set when the mock upstream did not finish serving
	// within a bound after the call.
	SettleErr error
	// ConntrackFull is set when that table was found full while the call
	// ran: new connections could be dropped, so a hang or a lost upstream
	// may be the machine's (Shared.Describe says so).
	ConntrackFull bool
}

// Send is how a call reaches the target: it sends to the running instance
// and returns what the agent saw.
type Send func(ctx context.Context, inst targets.Instance) (Output, error)

// Call makes one agent call on the lane with send, waiting at most timeout
// for the answer, then lets the mock upstream settle. It notes whether the
// machine's connection tracking table was full meanwhile (Conntrack); the
// wait for room is the scenario's and the case's, before they begin, so
// that nothing they set up (an approval's lifetime, a fresh timestamp)
// ages in between. A target that gives
// no answer within timeout is an outcome (Hung), not an error: Call returns
// an error only when ctx ended.
func (l *Lane) Call(ctx context.Context, tool string, args []byte, timeout time.Duration, send Send) (*Call, error) {
	fulls := Shared.Fulls()
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c := &Call{Tool: tool, Args: args, Started: time.Now(), AuditFrom: AuditSize(l.AuditFile)}
	c.Out, c.Err = send(cctx, l.Target)
	c.ConntrackFull = Shared.Fulls() > fulls
	sctx, scancel := context.WithTimeout(ctx, settleTimeout)
	defer scancel()
	if err := l.Upstream.Settle(sctx); err != nil {
		c.SettleErr = fmt.Errorf("the mock upstream did not settle after the call: %w", err)
	}
	if ctx.Err() != nil {
		return c, ctx.Err()
	}
	if c.Err != nil && errors.Is(c.Err, targets.ErrTimeout) {
		c.Hung, c.Err = timeout, nil
	}
	return c, nil
}
