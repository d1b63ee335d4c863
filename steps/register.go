package steps

import (
	"context"
	"fmt"

	"github.com/cucumber/godog"

	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/reports"
)

// Register adds toolcert's steps and scenario hooks to sc, for one
// scenario of a run that shares s. The runner calls it from godog's
// ScenarioInitializer.
//
// Before the scenario it waits for room in the machine's connection tracking
// table (harness.Conntrack), a lane is acquired and its mock upstream reset; after
// it, the agent-visible output is scanned for every planted canary (even
// when no step asked: nothing rejected may reach the agent), the evidence is
// kept for Result and the lane is released.
func Register(sc *godog.ScenarioContext, s *Suite) {
	sc.Before(func(ctx context.Context, pickle *godog.Scenario) (context.Context, error) {
		if ctx.Err() != nil {
			return ctx, interrupted(ctx)
		}
		harness.Shared.Room(ctx) // before anything of the scenario is set up to age
		lane, err := s.Lanes.Acquire(ctx)
		if err != nil {
			return ctx, fmt.Errorf("acquire a lane: %w", err)
		}
		lane.Upstream.Reset()
		w := newWorld(s, lane, pickle.Uri+"\x00"+pickle.Name)
		w.logMark = logMark(lane.Target)
		return context.WithValue(ctx, worldKey{}, w), nil
	})
	sc.After(func(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
		w, werr := from(ctx)
		if werr != nil {
			return ctx, err
		}
		defer s.Lanes.Release(w.lane)
		var leakErr error
		if leaks := w.scanLeaks(); len(leaks) > 0 && err == nil {
			leakErr = leakError(leaks)
		}
		var requests []reports.Request
		if w.call != nil {
			w.noteUnprogrammed()
			requests = w.upstreamRequests(w.started)
		}
		w.record = &Record{Lane: w.lane.ID, Evidence: w.evidence, Requests: w.ownRequests() + w.variantRequests,
			Exchanges: w.allExchanges(), Cases: w.cases, CaseStepError: w.caseStepErr, Saw: w.saw(),
			StrictStepErrors: w.strictStepErrs, StrictFailed: w.strictFailed, Upstream: requests,
			MustNotReach: w.mustNotReach, BlockedRequests: w.blockedRequests, TargetOutput: logsSince(w.lane.Target, w.logMark)}
		return ctx, leakErr
	})
	registerSteps(&registrar{sc: sc})
}

// Result returns the record of the finished scenario whose context is ctx:
// its lane, its evidence and the requests its upstream received. The runner
// calls it from an After hook registered after Register.
func Result(ctx context.Context) (Record, bool) {
	w, err := from(ctx)
	if err != nil || w.record == nil {
		return Record{}, false
	}
	return *w.record, true
}

// interrupted is the error of a step or hook that stops because the run
// was interrupted (its context is done): godog then marks the scenario
// skipped, not failed, since the adapter was not judged.
func interrupted(ctx context.Context) error {
	return fmt.Errorf("%w: the run was interrupted (%w)", godog.ErrSkip, context.Cause(ctx))
}
