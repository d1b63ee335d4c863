package steps

import (
	"context"
	"errors"
	"fmt"

	"github.com/cucumber/godog"

	"github.com/toolcert/toolcert/canary"
	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/variant"
)

// The safe level judges a generated case by its kind and by what the
// target showed the agent for the honest answer (docs/protocol.md,
// "Levels"): an equivalent answer is accepted and shows the same; a
// must-refuse answer is refused; an ignorable one is refused, or accepted
// and shows the same. At every level: no canary, no mark, no crash, no
// hang, the attempt budget kept.

// newCaseWorld returns the world of one generated case: its own canaries,
// but the baseline's clock and the tokens of the example's own
// placeholders, so that what the case shares with the honest answer
// renders alike.
func newCaseWorld(s *Suite, lane *harness.Lane, id string, b *baseline) *world {
	if b == nil {
		w := newWorld(s, lane, id)
		w.judging = true
		return w
	}
	w := &world{suite: s, lane: lane, now: b.now, judging: true}
	w.canaries = canary.NewSet(s.Seed, id, canary.SharedNames(b.scope, b.names...))
	w.vars = harness.Vars(w.now, s.Profile, w.canaries)
	return w
}

// judgeSafe judges the latest call at level safe: by v's kind, against
// the baseline b (nil when there is none for v).
func (w *world) judgeSafe(v variant.Variant, b *baseline) []error {
	c := w.call
	got := w.refused(c)
	var errs []error
	switch {
	case v.Kind == protocol.KindMustRefuse:
		if got != outcomeRefused {
			errs = append(errs, w.note(reports.EvidenceMismatch, "%s an answer that must be refused at every level (%s): %s",
				handed(got), v.Note, w.sawClip()))
		}
	case got == outcomeRefused && v.Kind == protocol.KindEquivalent && (b == nil || b.err != nil || !b.refused):
		errs = append(errs, w.note(reports.EvidenceMismatch, "the agent saw a failure for an answer equivalent to the honest one (%s), which %s", v.Note, honestly(b)))
	case got == outcomeRefused:
	case b == nil:
		errs = append(errs, w.note(reports.EvidenceBaseline, "%s an answer that may only be refused or read past, and there is no honest answer of the same arguments to compare with: %s", handed(got), w.sawClip()))
	case b.err != nil:
		errs = append(errs, w.note(reports.EvidenceBaseline, "%s an answer that may only be refused or read past, and what the agent saw of the honest answer is unknown (%v): %s", handed(got), b.err, w.sawClip()))
	default:
		if diff := viewDiff(b.view, w.viewOf()); diff != "" {
			errs = append(errs, w.note(reports.EvidenceBaseline, "the agent saw other than for the honest answer: %s", diff))
		}
	}
	if e := w.suite.expectation(v); v.Operator == "accepted" && e.Outcome == protocol.OutcomeSuccess {
		errs = append(errs, nonNil(w.seesData(e.Data))...) // the honest answer itself, checked against the corpus
	}
	return errs
}

// handed says, for evidence, what the agent was handed.
func handed(o agentOutcome) string {
	if o == outcomeAccepted {
		return "the agent was handed success for"
	}
	return "the agent got neither a failure nor the honest answer's output for"
}

// honestly says, for evidence, what the target did with the honest answer.
func honestly(b *baseline) string {
	switch {
	case b == nil:
		return "has no accepted example of the same arguments"
	case b.err != nil:
		return "could not be called: " + b.err.Error()
	}
	return "the target accepted"
}

// sawClip returns, for evidence, where the latest call's result is and
// what it starts with.
func (w *world) sawClip() string {
	c := w.call
	if c.Out.Answer != nil {
		for _, p := range c.Out.Parts {
			return fmt.Sprintf("its %s is %s", p.Where, quoteClip(string(p.Data), 0))
		}
		return "it shows nothing"
	}
	return fmt.Sprintf("its %s is %s", c.Out.ResultWhere, quoteClip(string(c.Out.Result), 0))
}

// leakAndMark scans the calls for every canary, and reports the variant's
// mark apart: a mark the agent saw in what a successful call showed means
// the answer was accepted and shown; in a failure it is a leak like any
// other canary.
func (w *world) leakAndMark(v variant.Variant) []error {
	from := len(w.evidence)
	leaks := w.scanLeaks()
	if len(leaks) == 0 {
		return nil
	}
	mark, _ := w.canaries.Token(variant.MarkName)
	accepted := w.call != nil && w.refused(w.call) == outcomeAccepted
	var errs []error
	var others []canary.Leak
	for i, l := range leaks {
		if mark == "" || l.Token != mark || !accepted {
			others = append(others, l)
			continue
		}
		e := &w.evidence[from+i]
		e.Kind = reports.EvidenceMark
		e.Message = fmt.Sprintf("accepted: the mark planted at %s reached the agent in %s (%s)", markedAt(v), l.Surfaced, l.Encoding)
		errs = append(errs, errors.New(e.Message))
	}
	if len(others) > 0 {
		errs = append([]error{leakError(others)}, errs...)
	}
	return errs
}

// markedAt names where v's mark was planted.
func markedAt(v variant.Variant) string {
	if v.Mark == "" {
		return "the answer"
	}
	return v.Mark
}

// reviveAfterCall starts the lane's target again when the case's call
// failed and the target no longer answers: a crash or a hang fails the
// case it happened in, and the next case runs on a new process.
func (w *world) reviveAfterCall(ctx context.Context) {
	c := w.call
	if c == nil || c.Err == nil && c.Hung == 0 {
		return
	}
	r, ok := w.suite.Lanes.(harness.Reviver)
	if !ok {
		return
	}
	_ = r.Revive(ctx, w.lane)
}

// caseStepFailed records that the scenario's step failed because of its
// generated cases at the level the run certifies, and returns err.
func (w *world) caseStepFailed(err error) error {
	w.caseStepErr = err.Error()
	return err
}

// level is the level the run certifies.
func (s *Suite) level() reports.Level {
	if s.Level == "" {
		return reports.DefaultLevel
	}
	return s.Level
}

// strictRule handles the outcome of a check of a rule of protocol v1
// beyond level safe, which recorded its evidence from index from on: that
// evidence is about level strict only. At level strict a failure is the
// step's error, kept so that the runner can pass the scenario at level
// safe when nothing else failed; at level safe the step passes, and the
// failure is kept for the scenario's status at level strict.
func (w *world) strictRule(from int, err error) error {
	if err == nil || w.judging || errors.Is(err, ErrNotApplicable) || errors.Is(err, godog.ErrSkip) {
		return err // a generated case's world judges both levels itself
	}
	if len(w.evidence) == from {
		w.evidence = append(w.evidence, reports.Evidence{Kind: reports.EvidenceMismatch, Message: err.Error()})
	}
	for i := from; i < len(w.evidence); i++ {
		w.evidence[i].Level = reports.LevelStrict
	}
	if w.suite.level() == reports.LevelStrict {
		w.strictStepErrs = append(w.strictStepErrs, err.Error())
		return err
	}
	w.strictFailed = true
	return nil
}
