package reports

import (
	"fmt"
	"slices"
	"strings"
)

// Level is a level of certification (docs/protocol.md, "Levels"). A run
// judges every scenario and generated case at both levels and certifies
// one: its Status fields, summary, verdict and exit code follow that one.
type Level string

// The levels, from the least to the most demanding.
const (
	// LevelSafe is what every adapter owes the agent, whatever its style:
	// nothing of a rejected answer reaches it, it sees exactly what the
	// honest answer would have shown or a fixed failure, answers about
	// another object or time, ambiguous ones and ones past a declared
	// limit are refused, and nothing crashes, hangs or leaves the route.
	LevelSafe Level = "safe"
	// LevelStrict is protocol v1 as written: safe, and every answer the
	// closed contract refuses refused.
	LevelStrict Level = "strict"
)

// DefaultLevel is the level a run certifies unless told otherwise: the
// protocol's promise.
const DefaultLevel = LevelStrict

// Levels returns every level, the least demanding first.
func Levels() []Level { return []Level{LevelSafe, LevelStrict} }

// ParseLevel returns the level called s ("" is DefaultLevel).
func ParseLevel(s string) (Level, error) {
	if s == "" {
		return DefaultLevel, nil
	}
	if l := Level(s); slices.Contains(Levels(), l) {
		return l, nil
	}
	return "", fmt.Errorf("level %q: want safe or strict", s)
}

// Covers reports whether a certificate at level l also certifies level
// want: strict covers safe.
func (l Level) Covers(want Level) bool {
	return slices.Index(Levels(), l) >= slices.Index(Levels(), want)
}

// StrictOnly is the status, at level safe, of a scenario tagged @strict
// (it asserts a rule of protocol v1 beyond what level safe asks: a closed
// object refused, an audit gate and reason) and of a reject of the corpus
// that may be read past (written by hand, it has no honest answer to
// compare with): level safe does not judge them. It is neither a pass nor
// a failure there.
const StrictOnly Status = "strict_only"

// StrictTag marks a scenario (or a feature) whose assertions are protocol
// v1's rules beyond level safe.
const StrictTag = "@strict"

// LevelSummary counts a run's scenarios and generated cases by their
// status at one level.
type LevelSummary struct {
	Level         Level `json:"level"`
	Scenarios     int   `json:"scenarios"`
	Passed        int   `json:"passed"`
	Failed        int   `json:"failed"`
	Skipped       int   `json:"skipped"`
	NotApplicable int   `json:"not_applicable"`
	// StrictOnly counts, at level safe, the scenarios it does not judge.
	StrictOnly  int `json:"strict_only,omitempty"`
	Cases       int `json:"cases"`
	CasesPassed int `json:"cases_passed"`
	CasesFailed int `json:"cases_failed"`
	// CasesStrictOnly counts, at level safe, the cases it does not judge.
	CasesStrictOnly int `json:"cases_strict_only,omitempty"`
}

// At returns the summary of level l, and false when the run has none for
// it (a results.json written before levels).
func (s Summary) At(l Level) (LevelSummary, bool) {
	for _, ls := range s.Levels {
		if ls.Level == l {
			return ls, true
		}
	}
	return LevelSummary{}, false
}

// StatusAt returns the scenario's status at level l: its Levels entry, or
// its Status when it has none (a hand-built result).
func (sc Scenario) StatusAt(l Level) Status {
	if st, ok := sc.Levels[l]; ok {
		return st
	}
	return sc.Status
}

// StatusAt returns the case's status at level l: its Levels entry, or its
// Status when it has none.
func (c Case) StatusAt(l Level) Status {
	if st, ok := c.Levels[l]; ok {
		return st
	}
	return c.Status
}

// tallyLevels counts every level's statuses into s.Levels. A baseline
// applies to the level the run certifies only: its marks are counted in
// the run's summary, not here. A result whose scenarios carry no status
// per level (written before levels) gets no per-level counts.
func (r *Result) tallyLevels(s *Summary) {
	s.Levels = nil
	if !r.judgedAtLevels() {
		return
	}
	for _, l := range Levels() {
		ls := LevelSummary{Level: l}
		for _, sc := range r.Scenarios {
			ls.Scenarios++
			switch sc.StatusAt(l) {
			case Passed:
				ls.Passed++
			case Skipped:
				ls.Skipped++
			case NotApplicable:
				ls.NotApplicable++
			case StrictOnly:
				ls.StrictOnly++
			default:
				ls.Failed++
			}
			for _, c := range sc.Cases {
				ls.Cases++
				switch c.StatusAt(l) {
				case Passed:
					ls.CasesPassed++
				case StrictOnly:
					ls.CasesStrictOnly++
				default:
					ls.CasesFailed++
				}
			}
		}
		s.Levels = append(s.Levels, ls)
	}
}

// judgedAtLevels reports whether r's scenarios or cases carry their
// statuses at each level; a result written before levels (or built by
// hand without them) does not, and has no per-level counts: its status
// at another level than the one it certified is unknown.
func (r *Result) judgedAtLevels() bool {
	for _, sc := range r.Scenarios {
		if len(sc.Levels) > 0 || slices.ContainsFunc(sc.Cases, func(c Case) bool { return len(c.Levels) > 0 }) {
			return true
		}
	}
	return false
}

// CountsAt reports whether e counts at level l: it is about every level
// (its Level is "") or about l's verdict.
func (e Evidence) CountsAt(l Level) bool { return e.Level == "" || e.Level == l }

// evidenceAt returns the evidence of ev that counts at level l, in order.
func evidenceAt(ev []Evidence, l Level) []Evidence {
	var out []Evidence
	for _, e := range ev {
		if e.CountsAt(l) {
			out = append(out, e)
		}
	}
	return out
}

// evidenceFirst returns ev with the evidence that counts at level l
// first and the rest (about another level's verdict only) after it, each
// in its order.
func evidenceFirst(ev []Evidence, l Level) []Evidence {
	out := evidenceAt(ev, l)
	for _, e := range ev {
		if !e.CountsAt(l) {
			out = append(out, e)
		}
	}
	return out
}

// evidenceKind is an evidence's kind as the formats label it: "leak", or
// "mismatch, level strict" for evidence about one level's verdict only.
func evidenceKind(e Evidence) string {
	if e.Level == "" {
		return e.Kind
	}
	return e.Kind + ", level " + string(e.Level)
}

// VerdictAt decides the run at level l as [Summary.Verdict] decides it at
// the level the run certifies (its summary, its baseline); at the other
// level, which no baseline applies to, from that level's counts
// ([Summary.At]). ok is false when the run has no counts for l: a result
// written before levels, asked about the level it did not certify.
func (r *Result) VerdictAt(l Level) (v Verdict, why []string, ok bool) {
	if l == r.CertifiedLevel() {
		v, why = r.Summary.Verdict()
		return v, why, true
	}
	ls, ok := r.Summary.At(l)
	if !ok {
		return "", nil, false
	}
	v, why = ls.summary(r.Summary.Interrupted).Verdict()
	return v, why, true
}

// summary returns the counts of ls as a run's summary without a
// baseline, interrupted as the run was.
func (ls LevelSummary) summary(interrupted bool) Summary {
	return Summary{Scenarios: ls.Scenarios, Passed: ls.Passed, Failed: ls.Failed, Skipped: ls.Skipped,
		NotApplicable: ls.NotApplicable, StrictOnly: ls.StrictOnly, Cases: ls.Cases, CasesPassed: ls.CasesPassed,
		CasesFailed: ls.CasesFailed, CasesStrictOnly: ls.CasesStrictOnly, Interrupted: interrupted}
}

// levelCounts says a level's counts on one line: "4 scenarios: 3 passed,
// 1 failed, 1 strict only; 20 generated cases: 19 passed, 1 failed". A
// count of skipped, not-applicable or strict-only ones is said only when
// there are any.
func levelCounts(ls LevelSummary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d scenarios: %d passed, %d failed", ls.Scenarios, ls.Passed, ls.Failed)
	for _, n := range []struct {
		n    int
		what string
	}{{ls.Skipped, "skipped"}, {ls.NotApplicable, "not applicable"}, {ls.StrictOnly, "strict only"}} {
		if n.n > 0 {
			fmt.Fprintf(&b, ", %d %s", n.n, n.what)
		}
	}
	if ls.Cases > 0 {
		fmt.Fprintf(&b, "; %d generated cases: %d passed, %d failed", ls.Cases, ls.CasesPassed, ls.CasesFailed)
		if ls.CasesStrictOnly > 0 {
			fmt.Fprintf(&b, ", %d strict only", ls.CasesStrictOnly)
		}
	}
	return b.String()
}
