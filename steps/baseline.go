package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sync"
	"time"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/variant"
)

// A baseline is what the target showed the agent for an accepted example
// served as it is: the honest answer, which the safe level compares every
// variant of the example with (docs/protocol.md, "Levels"). It is
// recorded once per run for each example and upstream version, on the
// lane of the first case that needs it, and again once it is older than
// baselineMaxAge: the example's timestamps are rendered at the baseline's
// clock, and so are its variants', which must stay fresh.
type baseline struct {
	// recorded is when the call was made, by the wall clock.
	recorded time.Time
	// now is the clock the example was rendered at; its variants are
	// rendered at the same clock.
	now time.Time
	// scope and names are the canary scope of the example's own
	// placeholders and their names: its variants plant the same tokens.
	scope string
	names []string
	// view is what the agent saw, as the comparison reads it; refused
	// reports that the call failed.
	view    []viewPart
	refused bool
	// err says why no view could be recorded (the target crashed, hung or
	// answered nothing readable); the variants of the example are then
	// judged without a baseline.
	err error
}

// baselineMaxAge bounds a baseline's age: the example's fresh timestamps
// and the variants' {{future}} are rendered at its clock, so a baseline
// is recorded again before that clock drifts far behind the wall clock.
// It is at most a tenth of the freshness window.
const baselineMaxAge = 20 * time.Second

// baselineKey names an accepted example in one upstream version.
type baselineKey struct{ tool, example, version string }

// baselineSlot holds the latest baseline of one example; its lock is
// held while one is recorded, so that lanes wanting the same example
// wait for one call instead of making their own.
type baselineSlot struct {
	mu  sync.Mutex
	cur *baseline
}

// baselines are a run's baselines, one slot per example and version.
type baselines struct {
	mu    sync.Mutex
	slots map[baselineKey]*baselineSlot
}

// slot returns the slot of key, made on first use.
func (b *baselines) slot(key baselineKey) *baselineSlot {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.slots == nil {
		b.slots = map[baselineKey]*baselineSlot{}
	}
	s, ok := b.slots[key]
	if !ok {
		s = &baselineSlot{}
		b.slots[key] = s
	}
	return s
}

// baselineFor returns the baseline variant v is judged against at the safe
// level: its example's, recorded on lane when there is none fresh enough.
// A reject of the corpus is judged against the first accepted example of
// its version with the same arguments; nil when there is none.
func (s *Suite) baselineFor(ctx context.Context, lane *harness.Lane, t *corpus.Tool, v variant.Variant) *baseline {
	acc, ok := s.exampleOf(t.Name, v)
	if !ok {
		return nil
	}
	slot := s.baselines.slot(baselineKey{t.Name, acc.ID, v.Version})
	slot.mu.Lock()
	defer slot.mu.Unlock()
	if b := slot.cur; b != nil && time.Since(b.recorded) < s.baselineMaxAge() {
		return b
	}
	slot.cur = s.recordBaseline(ctx, lane, t, acc, v.Version)
	return slot.cur
}

// baselineMaxAge is baselineMaxAge, or a tenth of the profile's freshness
// window when that is shorter.
func (s *Suite) baselineMaxAge() time.Duration {
	if f := time.Duration(s.Profile.Freshness) / 10; f > 0 && f < baselineMaxAge {
		return f
	}
	return baselineMaxAge
}

// exampleOf returns the accepted example v was made from; for a reject,
// the first accepted example of its version with its arguments.
func (s *Suite) exampleOf(tool string, v variant.Variant) (corpus.Accepted, bool) {
	cs, err := s.cases(tool)
	if err != nil {
		return corpus.Accepted{}, false
	}
	for _, acc := range cs.Accepted {
		if !slices.Contains(acc.Versions, v.Version) {
			continue
		}
		if v.Operator == variant.RejectOperator && maps.Equal(acc.Arguments, v.Arguments) || v.Operator != variant.RejectOperator && acc.ID == v.Example {
			return acc, true
		}
	}
	return corpus.Accepted{}, false
}

// recordBaseline serves the example as it is on lane and keeps what the
// agent saw.
func (s *Suite) recordBaseline(ctx context.Context, lane *harness.Lane, t *corpus.Tool, acc corpus.Accepted, version string) *baseline {
	scope := "baseline/" + t.Name + "/" + acc.ID + "@" + version
	w := newWorld(s, lane, scope)
	b := &baseline{recorded: time.Now(), now: w.now, scope: scope}
	raw, err := s.Corpus.Body(t.Name, acc.Body)
	if err != nil {
		b.err = err
		return b
	}
	b.names = canaryNames(raw)
	lane.Upstream.Reset()
	defer lane.Upstream.Reset()
	contentType := t.ContentType
	if contentType == "" {
		contentType = corpus.ContentType(acc.Body)
	}
	args, err := json.Marshal(acc.Arguments)
	if err != nil {
		b.err = err
		return b
	}
	err = w.serve(ctx, t, answerSpec{status: 200, contentType: contentType, body: raw, version: version,
		origin: "accepted example " + acc.ID, arguments: acc.Arguments}, args)
	w.reviveAfterCall(ctx)
	if err != nil {
		b.err = fmt.Errorf("the call with the accepted example %s as it is failed: %w", acc.ID, err)
		return b
	}
	c, err := w.mustCall()
	if err != nil {
		b.err = fmt.Errorf("the call with the accepted example %s as it is: %w", acc.ID, err)
		return b
	}
	b.view = w.suite.view(c.Tool, c.Out)
	b.refused = w.refused(c) == outcomeRefused
	return b
}

// placeholderName matches a canary placeholder and captures its name.
var placeholderName = regexp.MustCompile(`\{\{canary:([^}]+)\}\}`)

// canaryNames returns the names of the canary placeholders in raw.
func canaryNames(raw []byte) []string {
	var names []string
	for _, m := range placeholderName.FindAllSubmatch(raw, -1) {
		if n := string(m[1]); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}
