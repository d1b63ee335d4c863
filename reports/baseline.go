package reports

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
)

// Baseline lists the failures a run expects: scenarios by ID ("feature:
// name", as results.json gives them) and generated cases by case ID, each
// with the reason it is accepted for now. A connector owner adopting
// toolcert keeps CI green on known failures while every new failure, and
// every listed failure that starts passing, still fails the run.
type Baseline struct {
	// Level is the level whose failures the baseline lists: it applies
	// to a run that certifies that level only. "" is a baseline written
	// before levels, which listed protocol v1's (strict).
	Level     Level      `json:"level,omitempty"`
	Scenarios []Expected `json:"scenarios,omitempty"`
	Cases     []Expected `json:"cases,omitempty"`
}

// LevelOf returns the level whose failures b lists.
func (b *Baseline) LevelOf() Level {
	if b.Level == "" {
		return DefaultLevel
	}
	return b.Level
}

// Expected is one failure a baseline expects.
type Expected struct {
	ID     string `json:"id"`
	Reason string `json:"reason,omitempty"`
}

// The values of Scenario.Baseline and Case.Baseline.
const (
	// ExpectedFailure marks a failure the baseline lists.
	ExpectedFailure = "expected_failure"
	// UnexpectedPass marks a pass the baseline lists as a failure: the
	// entry is stale and must be removed, so the run fails.
	UnexpectedPass = "unexpected_pass"
)

// maxBaselineBytes bounds a baseline file.
const maxBaselineBytes = 16 << 20

// ReadBaseline reads a baseline from r: strict JSON, no unknown field, no
// empty or repeated ID.
func ReadBaseline(r io.Reader) (*Baseline, error) {
	var b Baseline
	if err := decodeStrict(r, maxBaselineBytes, &b); err != nil {
		return nil, fmt.Errorf("read baseline: %w", err)
	}
	if err := b.check(); err != nil {
		return nil, fmt.Errorf("read baseline: %w", err)
	}
	return &b, nil
}

// LoadBaseline reads the baseline file at path.
func LoadBaseline(path string) (*Baseline, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open baseline: %w", err)
	}
	defer f.Close()
	b, err := ReadBaseline(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// WriteBaseline writes b to the file at path as indented JSON, whole or
// not at all: on an error the file at path is left as it was. Write
// BaselineOf(r) to expect exactly the failures of r.
func WriteBaseline(path string, b *Baseline) error {
	err := writeAtomic(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(b)
	})
	if err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	return nil
}

// check refuses an unknown level and an empty or repeated ID.
func (b *Baseline) check() error {
	if b.Level != "" {
		if _, err := ParseLevel(string(b.Level)); err != nil {
			return err
		}
	}
	for kind, list := range map[string][]Expected{"scenarios": b.Scenarios, "cases": b.Cases} {
		seen := map[string]bool{}
		for i, e := range list {
			switch {
			case e.ID == "":
				return fmt.Errorf("%s[%d]: empty id", kind, i)
			case seen[e.ID]:
				return fmt.Errorf("%s[%d]: id %q listed twice", kind, i, e.ID)
			}
			seen[e.ID] = true
		}
	}
	return nil
}

// BaselineOf returns the baseline that expects exactly r's failures at the
// level it certifies, and names that level: every failed scenario that has
// no generated case, and every failed case. A skipped, not-applicable or
// strict-only scenario or case is no failure: it is left out.
func BaselineOf(r *Result) *Baseline {
	b := &Baseline{Level: r.CertifiedLevel()}
	for _, sc := range r.Scenarios {
		failedCases := 0
		for _, c := range sc.Cases {
			if c.Status == Failed {
				b.Cases = append(b.Cases, Expected{ID: c.ID})
				failedCases++
			}
		}
		if sc.Status == Failed && (failedCases == 0 || len(Failing(sc.Evidence)) > 0) {
			b.Scenarios = append(b.Scenarios, Expected{ID: sc.ID})
		}
	}
	return b
}

// Apply marks r's scenarios and cases against b and recounts the summary:
// a listed failure is an ExpectedFailure, a listed pass an UnexpectedPass.
// A scenario that failed only through generated cases the baseline lists
// (no evidence of its own) is an expected failure too. IDs that match
// nothing the run finished are returned: a filtered run may not reach them,
// so they are reported, not failed. A not-applicable scenario is neither an
// expected failure nor an unexpected pass: it is left unmarked, and an entry
// that lists it is returned with the unmatched ones, since the run could
// not check it. So is a strict-only scenario or case: the level the run
// certifies does not judge it.
func (b *Baseline) Apply(r *Result) (unmatched []string) {
	scenarios, cases := index(b.Scenarios, canonicalScenarioID), index(b.Cases, nil)
	for i := range r.Scenarios {
		sc := &r.Scenarios[i]
		allExpected := true
		for j := range sc.Cases {
			c := &sc.Cases[j]
			_, listed := cases[c.ID]
			c.Baseline = mark(c.Status, listed)
			if c.Status != StrictOnly {
				delete(cases, c.ID)
			}
			if c.Status == Failed && c.Baseline != ExpectedFailure {
				allExpected = false
			}
		}
		_, listed := scenarios[sc.ID]
		if sc.Status != NotApplicable && sc.Status != StrictOnly {
			delete(scenarios, sc.ID)
		}
		if !listed && sc.Status == Failed && len(sc.Cases) > 0 && allExpected && len(Failing(sc.Evidence)) == 0 {
			listed = true
		}
		sc.Baseline = mark(sc.Status, listed)
	}
	r.Tally()
	for _, id := range scenarios {
		unmatched = append(unmatched, id)
	}
	for _, id := range cases {
		unmatched = append(unmatched, id)
	}
	slices.Sort(unmatched)
	return unmatched
}

// index returns the IDs in list, each made canonical by canon when it is
// not nil, mapped to the ID as listed.
func index(list []Expected, canon func(string) string) map[string]string {
	m := make(map[string]string, len(list))
	for _, e := range list {
		id := e.ID
		if canon != nil {
			id = canon(id)
		}
		m[id] = e.ID
	}
	return m
}

// mark returns the baseline mark of an outcome: listed failures are
// expected, listed passes unexpected, anything else (a skip, a
// not-applicable or strict-only scenario or case) unmarked.
func mark(s Status, listed bool) string {
	switch {
	case !listed:
		return ""
	case s == Failed:
		return ExpectedFailure
	case s == Passed:
		return UnexpectedPass
	}
	return ""
}

// Unexplained reports whether r has a failure no baseline explains, or a
// listed failure that now passes: such a run is not a pass.
func (s Summary) Unexplained() bool {
	return s.Failed > s.ExpectedFailures || s.CasesUnexpected() || s.UnexpectedPasses > 0
}

// CasesUnexpected reports whether a generated case failed that no baseline
// lists.
func (s Summary) CasesUnexpected() bool {
	return s.CasesFailed > s.CasesExpected
}
