package reports

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Control is one requirement of a published standard that a run can give
// evidence for: an OWASP risk, an ASVS requirement, a CWE weakness, a
// section of an RFC or specification (docs/controls.md).
type Control struct {
	// ID names the control across runs ("CWE-436", "ASVS-v5.0.0-1.5.3").
	ID    string `json:"id"`
	Title string `json:"title"`
	// Source is the standard and its version ("OWASP ASVS 5.0.0"); a
	// weakness of the CWE has the source SourceCWE.
	Source  string `json:"source"`
	Section string `json:"section,omitempty"`
	URL     string `json:"url,omitempty"`
	// CWE lists the IDs of the catalogue's CWE controls this control is
	// related to; SARIF relates the control's rule to those weaknesses.
	CWE []string `json:"cwe,omitempty"`
}

// SourceCWE is the source of every control that is a CWE weakness: its ID
// is "CWE-" and the weakness's number.
const SourceCWE = "CWE"

// CWENumber returns the number of the CWE weakness c is ("436" for
// CWE-436), or "" when c is not one.
func (c Control) CWENumber() string {
	n, ok := strings.CutPrefix(c.ID, "CWE-")
	if c.Source != SourceCWE || !ok {
		return ""
	}
	return n
}

// Catalogue maps what a run exercises onto the controls it gives evidence
// for: feature files by base name ("duplicate_members.feature"), scenario
// tags ("@calls") and generator operators ("duplicate_member"), each to
// control IDs. The built-in one is fixtures/controls.json.
type Catalogue struct {
	Controls  []Control           `json:"controls"`
	Features  map[string][]string `json:"features,omitempty"`
	Tags      map[string][]string `json:"tags,omitempty"`
	Operators map[string][]string `json:"operators,omitempty"`
}

// The states of a control in a run.
const (
	// ControlEvidenced: scenarios or cases mapped to it ran, and every one
	// passed.
	ControlEvidenced = "evidenced"
	// ControlViolated: a scenario or case mapped to it failed (a failure
	// the baseline expects too: the baseline decides the verdict, not
	// whether the control holds).
	ControlViolated = "violated"
	// ControlNotExercised: nothing mapped to it passed or failed; it was
	// filtered out, skipped, not applicable to the target, or (at level
	// safe) strict only.
	ControlNotExercised = "not_exercised"
)

// maxControlViolations bounds the violations a ControlResult lists; Failed
// counts them all.
const maxControlViolations = 20

// ControlResult is a control's state in one run, and what decided it.
type ControlResult struct {
	Control
	// Status is ControlEvidenced, ControlViolated or ControlNotExercised,
	// at the level the run certifies, as the counts and violations are.
	Status string `json:"status"`
	// Passed and Failed count the scenarios and generated cases mapped to
	// the control that passed and failed; Expected counts the failures a
	// baseline lists.
	Passed   int `json:"passed"`
	Failed   int `json:"failed"`
	Expected int `json:"expected,omitempty"`
	// Violations are the first failures, in the result's order.
	Violations []ControlRef `json:"violations,omitempty"`
	// EvidencedBy is what the catalogue maps onto the control.
	EvidencedBy ControlMapping `json:"evidenced_by"`
	// Levels is the control's state at each level, the least demanding
	// first: which level evidences it. None in a run whose scenarios
	// carry no status per level (a result written before levels).
	Levels []ControlLevel `json:"levels,omitempty"`
}

// ControlLevel is a control's state at one level: evaluated as
// [ControlResult.Status] is, from the statuses of the scenarios and cases
// mapped to it at that level. A strict-only scenario or case (tagged
// @strict, at level safe) is neither evidence nor violation there, as a
// not-applicable one.
type ControlLevel struct {
	Level  Level  `json:"level"`
	Status string `json:"status"`
	Passed int    `json:"passed"`
	Failed int    `json:"failed"`
}

// At returns the control's state at level l, and false when the result
// has none per level.
func (cr ControlResult) At(l Level) (ControlLevel, bool) {
	for _, cl := range cr.Levels {
		if cl.Level == l {
			return cl, true
		}
	}
	return ControlLevel{}, false
}

// ControlRef names a scenario, or a generated case inside it.
type ControlRef struct {
	Scenario string `json:"scenario"`
	Case     string `json:"case,omitempty"`
	// Expected is set when a baseline lists the failure.
	Expected bool `json:"expected,omitempty"`
}

// ControlMapping is what gives evidence for one control: feature files,
// tags and operators, each sorted.
type ControlMapping struct {
	Features  []string `json:"features,omitempty"`
	Tags      []string `json:"tags,omitempty"`
	Operators []string `json:"operators,omitempty"`
}

// Evaluate returns the state of every control of c in r, in c's order:
// a scenario counts for the controls its feature file and its tags map to,
// a generated case for those its operator maps to; a passed one is
// evidence, a failed one a violation, a skipped, not-applicable or
// strict-only one neither. Status, counts and violations are the level
// the run certifies (its Status fields, its baseline marks); Levels gives
// the state at each level, from the statuses there. It is a pure function
// of r's scenarios and c, so that a run, a merge of shards and every
// renderer agree. A nil or empty catalogue has no controls.
func (c *Catalogue) Evaluate(r *Result) []ControlResult {
	if c == nil || len(c.Controls) == 0 {
		return nil
	}
	certified := r.CertifiedLevel()
	out := c.evaluateAt(r, certified)
	if !r.judgedAtLevels() {
		return out
	}
	for _, l := range Levels() {
		at := out
		if l != certified {
			at = c.evaluateAt(r, l)
		}
		for i := range out {
			out[i].Levels = append(out[i].Levels, ControlLevel{Level: l, Status: at[i].Status, Passed: at[i].Passed, Failed: at[i].Failed})
		}
	}
	return out
}

// evaluateAt returns the state of every control of c in r at level l:
// from the Status fields and baseline marks at the level r certifies,
// from the statuses at l otherwise (no baseline applies there).
func (c *Catalogue) evaluateAt(r *Result, l Level) []ControlResult {
	certified := l == r.CertifiedLevel()
	out := make([]ControlResult, len(c.Controls))
	at := make(map[string]int, len(c.Controls))
	for i, ctl := range c.Controls {
		out[i] = ControlResult{Control: ctl, EvidencedBy: c.mappingOf(ctl.ID)}
		at[ctl.ID] = i
	}
	for _, sc := range r.Scenarios {
		status, mark := sc.StatusAt(l), ""
		if certified {
			status, mark = sc.Status, sc.Baseline
		}
		for _, id := range c.ScenarioControls(sc) {
			out[at[id]].count(status, mark, ControlRef{Scenario: sc.ID})
		}
		for _, cs := range sc.Cases {
			status, mark := cs.StatusAt(l), ""
			if certified {
				status, mark = cs.Status, cs.Baseline
			}
			for _, id := range c.CaseControls(cs) {
				out[at[id]].count(status, mark, ControlRef{Scenario: sc.ID, Case: cs.ID})
			}
		}
	}
	for i := range out {
		out[i].Status = out[i].state()
	}
	return out
}

// ScenarioControls returns the IDs of the controls of c that sc's feature
// file and tags map to, in c's order.
func (c *Catalogue) ScenarioControls(sc Scenario) []string {
	ids := slices.Clone(c.Features[path.Base(sc.Feature)])
	for _, t := range sc.Tags {
		ids = append(ids, c.Tags[t]...)
	}
	return c.known(ids)
}

// CaseControls returns the IDs of the controls of c that cs's operator maps
// to, in c's order.
func (c *Catalogue) CaseControls(cs Case) []string {
	return c.known(c.Operators[cs.Operator])
}

// known returns the IDs of ids that name a control of c, once each, in
// c's order.
func (c *Catalogue) known(ids []string) []string {
	var out []string
	for _, ctl := range c.Controls {
		if slices.Contains(ids, ctl.ID) {
			out = append(out, ctl.ID)
		}
	}
	return out
}

// mappingOf returns what c maps onto the control id.
func (c *Catalogue) mappingOf(id string) ControlMapping {
	return ControlMapping{
		Features:  keysMapping(c.Features, id),
		Tags:      keysMapping(c.Tags, id),
		Operators: keysMapping(c.Operators, id),
	}
}

// keysMapping returns the keys of m whose list holds id, sorted.
func keysMapping(m map[string][]string, id string) []string {
	var out []string
	for k, ids := range m {
		if slices.Contains(ids, id) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// count adds one mapped scenario or case of status s and baseline mark.
func (cr *ControlResult) count(s Status, mark string, ref ControlRef) {
	switch s {
	case Passed:
		cr.Passed++
		return
	case Skipped, NotApplicable, StrictOnly:
		return
	}
	cr.Failed++
	ref.Expected = mark == ExpectedFailure
	if ref.Expected {
		cr.Expected++
	}
	if len(cr.Violations) < maxControlViolations {
		cr.Violations = append(cr.Violations, ref)
	}
}

// state decides the control from its counts.
func (cr *ControlResult) state() string {
	switch {
	case cr.Failed > 0:
		return ControlViolated
	case cr.Passed > 0:
		return ControlEvidenced
	}
	return ControlNotExercised
}

// CatalogueOf rebuilds the catalogue that controls were evaluated with:
// their controls, and what each one's EvidencedBy maps onto it. [Merge]
// evaluates the merged run with it, so that a results.json carries what
// its controls need.
func CatalogueOf(controls []ControlResult) *Catalogue {
	if len(controls) == 0 {
		return nil
	}
	c := &Catalogue{Features: map[string][]string{}, Tags: map[string][]string{}, Operators: map[string][]string{}}
	for _, cr := range controls {
		if slices.ContainsFunc(c.Controls, func(o Control) bool { return o.ID == cr.ID }) {
			continue
		}
		c.Controls = append(c.Controls, cr.Control)
		addMapping(c.Features, cr.EvidencedBy.Features, cr.ID)
		addMapping(c.Tags, cr.EvidencedBy.Tags, cr.ID)
		addMapping(c.Operators, cr.EvidencedBy.Operators, cr.ID)
	}
	return c
}

// addMapping maps each key onto id in m.
func addMapping(m map[string][]string, keys []string, id string) {
	for _, k := range keys {
		m[k] = append(m[k], id)
	}
}

// ControlCounts counts controls by state: evidenced, violated and not
// exercised.
func ControlCounts(controls []ControlResult) (evidenced, violated, notExercised int) {
	for _, cr := range controls {
		switch cr.Status {
		case ControlEvidenced:
			evidenced++
		case ControlViolated:
			violated++
		default:
			notExercised++
		}
	}
	return evidenced, violated, notExercised
}

// allControls returns the controls of every shard, in shard order.
func allControls(shards []*Result) []ControlResult {
	var out []ControlResult
	for _, r := range shards {
		out = append(out, r.Controls...)
	}
	return out
}

// citation names where c is written, for a reader: "CWE-436", "OWASP ASVS
// 5.0.0 V2.2.1", "RFC 8259 section 4".
func (c Control) citation() string {
	switch {
	case c.CWENumber() != "":
		return c.ID
	case c.Section == "":
		return c.Source
	case c.Section[0] >= '0' && c.Section[0] <= '9':
		return c.Source + " section " + c.Section
	}
	return c.Source + " " + c.Section
}

// named names c for a reader: its ID and title, and where it is written
// when its ID does not say ("CWE-436 Interpretation Conflict", "RFC8259-4
// Objects: ... (RFC 8259 section 4)").
func (c Control) named() string {
	if cite := c.citation(); cite != c.ID {
		return c.ID + " " + c.Title + " (" + cite + ")"
	}
	return c.ID + " " + c.Title
}

// levelsText says which level evidences cr, when its state differs
// between levels: "level safe: not exercised; level strict: evidenced".
// "" when every level agrees, or the result has no states per level.
func (cr ControlResult) levelsText() string {
	same := true
	var parts []string
	for _, cl := range cr.Levels {
		same = same && cl.Status == cr.Levels[0].Status
		parts = append(parts, fmt.Sprintf("level %s: %s", cl.Level, controlLabel(cl.Status)))
	}
	if same {
		return ""
	}
	return strings.Join(parts, "; ")
}
