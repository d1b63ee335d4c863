package steps

import (
	"regexp"
	"sync"

	"github.com/cucumber/godog"
)

// Kind says what a step does in a scenario.
type Kind string

// The kinds of step. Only an Assert step checks an outcome of the target;
// Arrange and Act steps fail only when the scenario cannot be set up or the
// call cannot be made as written.
const (
	Arrange Kind = "arrange" // programs the mock upstream or the session (Given)
	Act     Kind = "act"     // makes the agent call (When)
	Assert  Kind = "assert"  // checks an outcome; it can fail the scenario (Then)
)

// Definition is one step of toolcert's vocabulary: the regular expression
// a step's text must match, anchored at both ends, and what the step does.
type Definition struct {
	Pattern string
	Kind    Kind
	// Strict is set for an Assert step whose whole check is a rule of
	// protocol v1 beyond level safe (docs/protocol.md, "Levels"): its
	// failure fails the scenario at level strict only.
	Strict bool
}

// Vocabulary returns every step toolcert registers, in registration order:
// the steps Register adds to each scenario, each with its kind. Each call
// returns a new slice the caller may keep or change.
func Vocabulary() []Definition {
	var defs []Definition
	registerSteps(&registrar{defs: &defs})
	return defs
}

// registrar registers steps with godog, when it has a scenario context, and
// lists them with their kind, when it has a list. The *Steps functions take
// one so that what a scenario runs and what Vocabulary lists cannot drift.
type registrar struct {
	sc   *godog.ScenarioContext // nil when only listing
	defs *[]Definition          // nil when only registering
}

// arrange adds a step that programs the mock upstream or the session.
func (r *registrar) arrange(pattern string, handler any) { r.add(Arrange, pattern, handler) }

// act adds a step that makes a call to the target.
func (r *registrar) act(pattern string, handler any) { r.add(Act, pattern, handler) }

// assert adds a step that checks an outcome.
func (r *registrar) assert(pattern string, handler any) { r.add(Assert, pattern, handler) }

// strictAssert adds a step that checks a rule of protocol v1 beyond level
// safe: see world.strictRule.
func (r *registrar) strictAssert(pattern string, handler any) {
	if r.sc != nil {
		r.sc.Step(compiled(pattern), strictly(handler))
	}
	if r.defs != nil {
		*r.defs = append(*r.defs, Definition{Pattern: pattern, Kind: Assert, Strict: true})
	}
}

// add registers handler for pattern with godog's keyword-agnostic Step
// (features use And after any keyword) and lists the definition.
func (r *registrar) add(kind Kind, pattern string, handler any) {
	if r.sc != nil {
		r.sc.Step(compiled(pattern), handler)
	}
	if r.defs != nil {
		*r.defs = append(*r.defs, Definition{Pattern: pattern, Kind: kind})
	}
}

// registerSteps runs every *Steps function with r, in the order Register
// has always used: it is the order godog tries the patterns in.
func registerSteps(r *registrar) {
	upstreamSteps(r)
	agentSteps(r)
	outcomeSteps(r)
	leakSteps(r)
	auditSteps(r)
	journalSteps(r)
	variantSteps(r)
	callSteps(r)
	mcpServerSteps(r)
}

// patterns holds each step pattern compiled: godog compiles a pattern
// given as a string for every scenario it registers steps in, and a
// compiled *regexp.Regexp is safe to share.
var patterns sync.Map

// compiled returns pattern compiled, once per process.
func compiled(pattern string) *regexp.Regexp {
	if re, ok := patterns.Load(pattern); ok {
		return re.(*regexp.Regexp)
	}
	re, _ := patterns.LoadOrStore(pattern, regexp.MustCompile(pattern))
	return re.(*regexp.Regexp)
}
