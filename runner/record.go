package runner

import (
	"context"
	"errors"
	"io"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/steps"
)

// recorder collects scenario results from godog's hooks into the result
// model. Scenarios finish concurrently, so it locks.
type recorder struct {
	mu        sync.Mutex
	scenarios []reports.Scenario
	requests  int
	blocked   int
	blockedRq int
	progress  io.Writer
	// requireAll makes a not-applicable scenario a failure.
	requireAll bool
	// level is the level the run certifies.
	level reports.Level
	// sources give each scenario and step its line in its feature file.
	sources *gherkinSources
	// variantIDs names the generated variants a step runs (nil: none
	// known), to list those of a skipped step.
	variantIDs func(text string) ([]string, bool)
}

// hook registers, for one scenario, the hooks that record it. It must be
// registered after steps.Register so that its After hook sees the final
// error, leak check included.
func (r *recorder) hook(sc *godog.ScenarioContext) {
	var (
		started   time.Time
		result    reports.Scenario
		stepLines map[string]int
	)
	sc.Before(func(ctx context.Context, p *godog.Scenario) (context.Context, error) {
		started = time.Now()
		src := r.sources.of(p)
		result = reports.Scenario{ID: scenarioID(p), Feature: p.Uri, Name: p.Name, Line: src.line, Gherkin: src.gherkin}
		stepLines = src.steps
		for _, t := range p.Tags {
			result.Tags = append(result.Tags, t.Name)
		}
		return ctx, nil
	})
	var stepStarted time.Time
	sc.StepContext().Before(func(ctx context.Context, _ *godog.Step) (context.Context, error) {
		stepStarted = time.Now()
		return ctx, nil
	})
	sc.StepContext().After(func(ctx context.Context, st *godog.Step, status godog.StepResultStatus, err error) (context.Context, error) {
		s := reports.Step{Keyword: keyword(st.Type), Text: st.Text, Status: stepStatus(status, err), Line: stepLines[st.Id]}
		if !stepStarted.IsZero() {
			s.Duration = reports.Duration(time.Since(stepStarted))
		}
		if err != nil {
			s.Error = err.Error()
		}
		result.Steps = append(result.Steps, s)
		return ctx, nil
	})
	sc.After(func(ctx context.Context, p *godog.Scenario, err error) (context.Context, error) {
		if outOfShard(ctx) {
			return ctx, nil // another shard's scenario: not part of this result
		}
		r.skipRest(&result, p, stepLines)
		result.Duration = reports.Duration(time.Since(started))
		result.Status = scenarioStatus(err, result.Steps)
		result.Error = scenarioError(err, result.Steps)
		if result.Status == reports.NotApplicable && r.requireAll {
			result.Status = reports.Failed
			result.Error += " (and --require-all makes it a failure)"
		}
		rec, ok := steps.Result(ctx)
		if ok {
			result.Lane, result.Evidence, result.Cases = rec.Lane, rec.Evidence, rec.Cases
		}
		result.Levels = levelStatuses(result, rec, r.level)
		result.Status = result.Levels[r.level]
		if slices.Contains(slices.Collect(maps.Values(result.Levels)), reports.Failed) || len(reports.Failing(result.Evidence)) < len(result.Evidence) {
			result.Saw, result.Requests, result.TargetOutput = rec.Saw, rec.Upstream, rec.TargetOutput
		}
		if result.Levels[reports.LevelSafe] == reports.StrictOnly {
			for i := range result.Evidence {
				result.Evidence[i].Level = reports.LevelStrict // level safe does not judge it
			}
		}
		r.add(result, rec.Requests)
		if rec.MustNotReach {
			r.block(rec.BlockedRequests)
		}
		return ctx, nil
	})
}

// skipRest records the steps of p after the last one recorded, which
// godog skips once a step failed (its After hook runs at the failed
// step), as skipped; and the generated variants a skipped step would have
// run as the scenario's skipped cases.
func (r *recorder) skipRest(result *reports.Scenario, p *godog.Scenario, lines map[string]int) {
	if p == nil || len(result.Steps) >= len(p.Steps) {
		return
	}
	for _, st := range p.Steps[len(result.Steps):] {
		result.Steps = append(result.Steps, reports.Step{Keyword: keyword(st.Type), Text: st.Text, Status: reports.Skipped, Line: lines[st.Id]})
		if r.variantIDs == nil {
			continue
		}
		if ids, ok := r.variantIDs(st.Text); ok {
			result.SkippedCases = append(result.SkippedCases, ids...)
		}
	}
}

func (r *recorder) add(s reports.Scenario, requests int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.scenarios = append(r.scenarios, s)
	r.requests += requests
	if r.progress != nil {
		reports.Progress(r.progress, s)
	}
}

// block counts a scenario that asserted nothing reached the upstream.
func (r *recorder) block(requests int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.blocked++
	r.blockedRq += requests
}

// scenarioStatus maps godog's scenario error and the steps' statuses onto
// the model. Undefined and pending steps fail the scenario: a step nobody
// wrote proves nothing. A scenario passes only when every step passed:
// godog hands the After hook no error when a step that skipped (an
// interrupted run) was not the last, and a skip is not a pass.
func scenarioStatus(err error, st []reports.Step) reports.Status {
	switch {
	case err != nil && !errors.Is(err, godog.ErrSkip):
		return reports.Failed
	case slices.ContainsFunc(st, func(s reports.Step) bool { return s.Status == reports.Failed }):
		return reports.Failed
	case slices.ContainsFunc(st, func(s reports.Step) bool { return s.Status == reports.NotApplicable }):
		return reports.NotApplicable
	case err != nil || len(st) == 0:
		return reports.Skipped
	case slices.ContainsFunc(st, func(s reports.Step) bool { return s.Status != reports.Passed }):
		return reports.Skipped
	}
	return reports.Passed
}

// scenarioError is the scenario's error, or else the first error of its
// steps.
func scenarioError(err error, st []reports.Step) string {
	if err != nil {
		return err.Error()
	}
	for _, s := range st {
		if s.Error != "" {
			return s.Error
		}
	}
	return ""
}

// keyword returns the Gherkin keyword of a step's type.
func keyword(t messages.PickleStepType) string {
	switch t {
	case messages.PickleStepType_CONTEXT:
		return "Given"
	case messages.PickleStepType_ACTION:
		return "When"
	case messages.PickleStepType_OUTCOME:
		return "Then"
	}
	return ""
}

// stepStatus maps godog's status of a step, and its error, onto the
// model: a step that does not apply to the target is NotApplicable.
func stepStatus(s godog.StepResultStatus, err error) reports.Status {
	if errors.Is(err, steps.ErrNotApplicable) {
		return reports.NotApplicable
	}
	switch s {
	case godog.StepPassed:
		return reports.Passed
	case godog.StepSkipped:
		return reports.Skipped
	}
	return reports.Failed
}

// levelStatuses returns the scenario's status at each level, from its
// status at the level the run certifies (sc.Status, as its steps ended
// there), its generated cases and the steps that judge one level only
// (rec). A scenario tagged @strict is not judged at level safe.
func levelStatuses(sc reports.Scenario, rec steps.Record, certified reports.Level) map[reports.Level]reports.Status {
	out := make(map[reports.Level]reports.Status, len(reports.Levels()))
	for _, l := range reports.Levels() {
		switch {
		case l == reports.LevelSafe && slices.Contains(sc.Tags, reports.StrictTag):
			out[l] = reports.StrictOnly
		case l == certified:
			out[l] = sc.Status
		default:
			out[l] = otherLevel(sc, rec, l)
		}
	}
	return out
}

// otherLevel is the scenario's status at level l, which the run does not
// certify. It fails at l when a case fails there, or a rule of level
// strict failed where the run certifies safe. A scenario that failed at
// the certified level only by steps whose failure does not count at l (the
// step that ran its cases, when they pass at l; a rule of level strict,
// when l is safe), with no evidence of its own that counts at l, passes at
// l, or is skipped there when steps after those did not run.
func otherLevel(sc reports.Scenario, rec steps.Record, l reports.Level) reports.Status {
	casesFail := slices.ContainsFunc(sc.Cases, func(c reports.Case) bool { return c.StatusAt(l) == reports.Failed })
	failsAtL := casesFail || l == reports.LevelStrict && rec.StrictFailed
	switch sc.Status {
	case reports.Passed:
		if failsAtL {
			return reports.Failed
		}
		return reports.Passed
	case reports.Failed:
		onlyThere := func(s reports.Step) bool {
			return s.Error == rec.CaseStepError && rec.CaseStepError != "" && !casesFail ||
				l == reports.LevelSafe && slices.Contains(rec.StrictStepErrors, s.Error)
		}
		last := -1
		for i, s := range sc.Steps {
			if s.Status != reports.Failed {
				continue
			}
			if !onlyThere(s) {
				return reports.Failed
			}
			last = i
		}
		countsAtL := slices.ContainsFunc(reports.Failing(sc.Evidence), func(e reports.Evidence) bool { return e.Level == "" || e.Level == l })
		switch {
		case last < 0 || failsAtL || countsAtL:
			return reports.Failed
		case last+1 < len(sc.Steps):
			return reports.Skipped // the steps after it did not run
		}
		return reports.Passed
	}
	return sc.Status
}
