package steps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/mocks"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/variant"
)

// variants returns the run's generated variants whose tool, or tool and
// example ("run_status/failed"), is selector, or the one whose ID it is.
// Only the selector's tool is generated, when it is asked for, and the
// variants are the caller's: a run holds the variants of the scenarios
// running now, not of the whole corpus (each variant's choices are seeded
// by its own tool, example and operator, so the variants are the same).
func (s *Suite) variants(selector string) ([]variant.Variant, error) {
	tool, _, _ := strings.Cut(selector, "/")
	all, err := variant.Generate(s.Corpus, variant.Options{
		Seed: s.Seed, MaxBytes: s.Profile.MaxBytes, MaxDepth: s.Profile.MaxDepth, Tools: []string{tool},
	})
	if err != nil && !errors.Is(err, variant.ErrUnknownTool) {
		return nil, err
	}
	var out []variant.Variant
	for _, v := range all {
		if s.UpstreamVersion != "" && v.Version != s.UpstreamVersion {
			continue
		}
		if v.ID == selector || v.Tool == selector || v.Tool+"/"+v.Example == selector {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no generated variant matches %q for upstream version %q (want a tool, tool/example or a variant ID)", selector, s.UpstreamVersion)
	}
	return out, nil
}

// reproducer is the one-line command that runs a variant alone with the
// same canaries, quoted by reports.Command: the words after the ID are the
// run's, quoted once.
func (s *Suite) reproducer(id string) string {
	s.reproduceRestOnce.Do(func() {
		words := []string{"--seed", strconv.FormatUint(s.Seed, 10)}
		if s.UpstreamVersion != "" {
			words = append(words, "--upstream-version", s.UpstreamVersion)
		}
		s.reproduceRest = reports.Command(words...)
		if s.ReproduceFlags != "" {
			s.reproduceRest += " " + s.ReproduceFlags
		}
	})
	return reports.Command("toolcert", "run", "--case", id) + " " + s.reproduceRest
}

// runVariants serves every selected variant through the target, each on
// a reset lane (the scenario's, or one the pool lends meanwhile:
// eachOnLanes), and records each as its own case, in the variants' order.
func (w *world) runVariants(ctx context.Context, selector string) error {
	at := time.Now()
	vs, err := w.suite.variants(selector)
	w.suite.caseTime.since(&w.suite.caseTime.generate, at)
	if err != nil {
		return err
	}
	tools := map[string]toolOrErr{} // each tool.json decoded once per run, not per case
	for _, v := range vs {
		if _, ok := tools[v.Tool]; !ok {
			var t toolOrErr
			t.tool, t.err = w.suite.tool(v.Tool)
			tools[v.Tool] = t
		}
	}
	done := make([]variantRun, len(vs))
	w.eachOnLanes(ctx, len(vs), func(lane *harness.Lane, i int) {
		done[i] = w.runVariant(ctx, lane, vs[i], tools[vs[i].Tool])
	})
	if ctx.Err() != nil {
		return interrupted(ctx) // a case was cut short or never ran: not judged
	}
	var failed []string
	for i, r := range done {
		w.cases = append(w.cases, r.c)
		w.variantRequests += r.requests
		if r.x != nil {
			w.variantExchanges = append(w.variantExchanges, *r.x)
		}
		if r.c.Status == reports.Failed {
			failed = append(failed, vs[i].ID)
		}
	}
	if len(failed) > 0 {
		return w.caseStepFailed(fmt.Errorf("%d of %d variants failed: %s", len(failed), len(vs), strings.Join(first(failed, 5), ", ")))
	}
	return nil
}

// variantRun is what one variant's case left: its record, the upstream
// requests it caused and its exchange, if it called the target.
type variantRun struct {
	c        reports.Case
	requests int
	x        *harness.Exchange
}

// toolOrErr is a tool of the corpus as Corpus.Tool returned it.
type toolOrErr struct {
	tool *corpus.Tool
	err  error
}

func first(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], fmt.Sprintf("… and %d more", len(s)-n))
	}
	return s
}

// runVariant runs one variant in a world of its own (its own canaries,
// answers and call) on lane, reset first, and judges it at both levels.
func (w *world) runVariant(ctx context.Context, lane *harness.Lane, v variant.Variant, t toolOrErr) variantRun {
	harness.Shared.Room(ctx) // before the case's answer and baseline are made
	started, mark := time.Now(), logMark(lane.Target)
	var b *baseline
	if t.err == nil {
		at := time.Now()
		b = w.suite.baselineFor(ctx, lane, t.tool, v)
		w.suite.caseTime.since(&w.suite.caseTime.baselines, at)
	}
	lane.Upstream.Reset()
	child := newCaseWorld(w.suite, lane, v.ID, b)
	j := child.judgeVariant(ctx, v, t, b)
	r := variantRun{requests: child.requests()}
	if x, ok := child.exchange(); ok {
		r.x = &x
	}
	levels := map[reports.Level]reports.Status{reports.LevelSafe: j.status(j.safe), reports.LevelStrict: j.status(j.strict)}
	failed := slices.Contains(slices.Collect(maps.Values(levels)), reports.Failed)
	output := ""
	if failed {
		output = logsSince(lane.Target, mark) // before a crashed target is started again
	}
	child.reviveAfterCall(ctx)
	c := reports.Case{
		ID: v.ID, Tool: v.Tool, Operator: v.Operator, Field: v.Field, Kind: string(v.Kind),
		Duration: reports.Duration(time.Since(started)), Reproducer: w.suite.reproducer(v.ID), Evidence: child.evidence,
		Levels: levels, TargetOutput: output,
	}
	if j.strictOnly {
		c.Levels[reports.LevelSafe] = reports.StrictOnly
		for i := range c.Evidence {
			c.Evidence[i].Level = reports.LevelStrict
		}
	}
	c.Status = c.Levels[w.suite.level()]
	asked := child.noteUnprogrammed()
	if failed || asked {
		c.Saw, c.Requests = child.saw(), child.upstreamRequests(started)
	}
	c.Evidence = child.evidence
	r.c = c
	return r
}

// judgement is what one case found: failures at every level (a crash, a
// hang, a leak, the mark, the attempt budget), and those of each level's
// own rules.
type judgement struct {
	common, strict, safe []error
	// strictOnly is set when level safe does not judge the case.
	strictOnly bool
}

// status is the case's status at a level whose own failures are errs.
func (j judgement) status(errs []error) reports.Status {
	if len(j.common)+len(errs) > 0 {
		return reports.Failed
	}
	return reports.Passed
}

// judgeVariant serves the variant, calls the tool and judges what the
// agent saw: by the variant's expectation at level strict, by its kind
// and the baseline b at level safe (docs/protocol.md, "Levels").
func (w *world) judgeVariant(ctx context.Context, v variant.Variant, tool toolOrErr, b *baseline) judgement {
	var j judgement
	t, err := tool.tool, tool.err
	if err != nil {
		j.common = w.phase("", func() []error { return []error{err} })
		return j
	}
	args, err := json.Marshal(v.Arguments)
	if err != nil {
		j.common = w.phase("", func() []error { return []error{err} })
		return j
	}
	spec := answerSpec{status: v.Status, contentType: v.ContentType, body: v.Body, version: v.Version, origin: "variant " + v.ID, arguments: v.Arguments}
	timer := &w.suite.caseTime
	at := time.Now()
	defer func() { timer.since(&timer.checks, at) }() // from the call's end on
	j.common = w.phase("", func() []error {
		err := w.serve(ctx, t, spec, args)
		timer.since(&timer.calls, at)
		at = time.Now()
		if err != nil {
			return append([]error{err}, w.leakAndMark(v)...)
		}
		if _, err := w.mustCall(); err != nil {
			return append([]error{err}, w.leakAndMark(v)...)
		}
		return append(w.leakAndMark(v), nonNil(w.receivedAtMostBudget())...)
	})
	if w.call == nil || w.call.Err != nil || w.call.Hung > 0 {
		return j
	}
	j.strict = w.phase(reports.LevelStrict, func() []error { return w.expect(ctx, w.suite.expectation(v)) })
	j.strictOnly = (strictOnly(v) || v.Operator == overByteLimit && !w.suite.LimitsDeclared) && w.refused(w.call) != outcomeRefused
	if !j.strictOnly {
		j.safe = w.phase(reports.LevelSafe, func() []error { return w.judgeSafe(v, b) })
	}
	w.mergeLevels()
	return j
}

// strictOnly reports whether v is a reject of the corpus that may be read
// past: level safe judges its refusal (nothing of it may reach the agent)
// but not its acceptance, since an answer written by hand has no honest
// answer to compare with (it may differ from every accepted example in
// what the agent is shown).
func strictOnly(v variant.Variant) bool {
	return v.Operator == variant.RejectOperator && v.Kind == protocol.KindIgnorable
}

// overByteLimit is the operator of an answer one past the byte limit: a
// limit the target must have declared for level safe to hold it to one.
const overByteLimit = "over_byte_limit"

// nonNil returns err as a list: empty when it is nil.
func nonNil(err error) []error {
	if err == nil {
		return nil
	}
	return []error{err}
}

// phase runs check, tags the evidence it records with level ("" for
// every level), and records as evidence each error it returns that left
// none.
func (w *world) phase(level reports.Level, check func() []error) []error {
	from := len(w.evidence)
	errs := check()
	if len(w.evidence) == from {
		for _, err := range errs {
			w.evidence = append(w.evidence, reports.Evidence{Kind: reports.EvidenceMismatch, Message: err.Error()})
		}
	}
	for i := from; i < len(w.evidence); i++ {
		w.evidence[i].Level = level
	}
	return errs
}

// mergeLevels folds evidence both levels recorded alike (the accepted
// example's data check) into one piece that counts at every level.
func (w *world) mergeLevels() {
	var out []reports.Evidence
	for _, e := range w.evidence {
		if e.Level == reports.LevelSafe {
			i := slices.IndexFunc(out, func(o reports.Evidence) bool {
				return o.Level == reports.LevelStrict && o.Kind == e.Kind && o.Message == e.Message && o.Diff == e.Diff
			})
			if i >= 0 {
				out[i].Level = ""
				continue
			}
		}
		out = append(out, e)
	}
	w.evidence = out
}

// answerSpec is an upstream answer a case serves on the tool's route.
type answerSpec struct {
	status      int
	contentType string // "" sends none
	body        []byte // a template
	version     string
	origin      string // names the template in errors and canaries
	arguments   map[string]string
}

// serve programs the tool's route with the answer a (rendered, with the
// tool's version header) and calls the tool with args.
func (w *world) serve(ctx context.Context, t *corpus.Tool, a answerSpec, args []byte) error {
	body, err := w.render(a.body, a.origin)
	if err != nil {
		return err
	}
	resp := withType(mocks.Response{Status: a.status, Body: body}, a.contentType)
	if t.VersionHeader != "" {
		resp.Header = append(resp.Header, mocks.HeaderField{Name: t.VersionHeader, Value: a.version})
	}
	w.answer(t.Request.Method, requestPath(t, a.arguments), resp)
	return w.callTool(ctx, t.Name, args)
}

// expectation is what the variant expects of this target: as generated
// when the target supports the variant's upstream version; otherwise a
// clean rejection, since an answer of a version the adapter does not know
// must never be half-accepted. Where a clean rejection is recorded (parse,
// schema, an unsupported_version reason) is the adapter's choice, so the
// audit gate is not asserted then; a transport outcome stays as it is.
func (s *Suite) expectation(v variant.Variant) variant.Expect {
	e := v.Expect
	if s.Profile.Supports(v.Tool, v.Version) || e.Gate == string(protocol.GateTransport) {
		return e
	}
	return variant.Expect{Outcome: protocol.OutcomeFailure, Code: protocol.CodeInvalidResponse}
}

// expect checks what the variant expects, or one of the alternatives the
// decision table allows (variant.Expect.Allowed): the one with the
// outcome, code and retryable flag the agent saw, and then any of them
// with that outcome for the audit's gate and reason. A check that does not
// apply to the target (no request id, no audit log) is left out of the
// case.
func (w *world) expect(ctx context.Context, e variant.Expect) []error {
	allowed := e.Allowed()
	if len(allowed) == 1 {
		return w.expectOne(ctx, e, nil)
	}
	chosen := allowed[0]
	if r, err := w.result(); err == nil {
		for _, a := range allowed {
			if a.Outcome == r.outcome && (a.Outcome != protocol.OutcomeFailure || !r.codeKnown || string(a.Code) == r.code && a.Retryable == r.retryable) {
				chosen = a
				break
			}
		}
	}
	var verdicts []gateRecord
	for _, a := range allowed {
		if a.Outcome == chosen.Outcome && a.Code == chosen.Code && a.Retryable == chosen.Retryable {
			verdicts = append(verdicts, gateRecord{Gate: a.Gate, Reason: a.Reason})
		}
	}
	return w.expectOne(ctx, chosen, verdicts)
}

// expectOne checks e; when verdicts holds more than one gate and reason,
// the audit may record any of them.
func (w *world) expectOne(ctx context.Context, e variant.Expect, verdicts []gateRecord) []error {
	var errs []error
	check := func(err error) {
		if err != nil && !errors.Is(err, ErrNotApplicable) {
			errs = append(errs, err)
		}
	}
	if e.Outcome == protocol.OutcomeSuccess {
		check(w.seesData(e.Data))
		check(w.ownRequestID())
	} else {
		retry := "not retryable"
		if e.Retryable {
			retry = "retryable"
		}
		check(w.seesFailure(string(e.Code), retry))
	}
	switch {
	case !w.suite.Capabilities.Audit || len(errs) > 0 || e.Gate == "":
	case len(verdicts) > 1:
		check(w.auditGateIn(ctx, verdicts))
	default:
		check(w.auditGate(ctx, e.Gate, e.Reason, false))
	}
	return errs
}

// auditGateIn checks that the latest call's audit event records one of
// verdicts, each a gate and reason the decision table allows.
func (w *world) auditGateIn(ctx context.Context, verdicts []gateRecord) error {
	ev, err := w.auditFor(ctx)
	if err != nil {
		return err
	}
	got := gateRecord{Gate: ev.Gate, Reason: ev.Reason}
	if slices.Contains(verdicts, got) {
		return nil
	}
	want := make([]string, len(verdicts))
	for i, v := range verdicts {
		want[i] = v.String()
	}
	return w.note(reports.EvidenceAudit, "the audit records %s; want one of the decision table's: %s", got, strings.Join(want, "; "))
}

func (w *world) leakCheck() []error {
	if leaks := w.scanLeaks(); len(leaks) > 0 {
		return []error{leakError(leaks)}
	}
	return nil
}

// requestPath is the upstream path of tool for args, each argument
// path-escaped as an adapter would.
func requestPath(t *corpus.Tool, args map[string]string) string {
	esc := make(map[string]string, len(args))
	for k, v := range args {
		esc[k] = url.PathEscape(v)
	}
	return t.Request.URLPath(esc)
}

// The steps that run generated variants, by a selector (a tool, a tool
// and example, or a variant ID) and by one variant's ID.
var (
	everyVariantStep = regexp.MustCompile(`^every generated variant of "([^"]+)" is handled as expected without leaking$`)
	oneVariantStep   = regexp.MustCompile(`^the generated variant "([^"]+)" is handled as expected without leaking$`)
)

// VariantIDs returns the IDs of the generated cases a step of text runs,
// and whether text is a step that runs generated variants: the runner
// lists them as skipped when a step before it failed. A selector that
// matches no variant gives none.
func (s *Suite) VariantIDs(text string) ([]string, bool) {
	m := everyVariantStep.FindStringSubmatch(text)
	if m == nil {
		m = oneVariantStep.FindStringSubmatch(text)
	}
	if m == nil {
		return nil, false
	}
	vs, err := s.variants(m[1])
	if err != nil {
		return nil, true
	}
	ids := make([]string, len(vs))
	for i, v := range vs {
		ids[i] = v.ID
	}
	return ids, true
}

// variantSteps registers the Then steps that run generated variants: each
// serves a variant, calls the target and checks the outcome it expects.
func variantSteps(r *registrar) {
	r.assert(everyVariantStep.String(), func(ctx context.Context, selector string) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.runVariants(ctx, selector)
	})
	r.assert(oneVariantStep.String(), func(ctx context.Context, id string) error {
		w, err := from(ctx)
		if err != nil {
			return err
		}
		return w.runVariants(ctx, id)
	})
}
