package reports

import (
	"fmt"
	"strings"
	"unicode"
)

// The CWE taxonomy of a SARIF log: its name, as toolComponent references
// name it, and what it says of itself.
const (
	sarifCWEName    = "CWE"
	sarifCWEOrg     = "MITRE"
	sarifCWEInfoURI = "https://cwe.mitre.org/"
	sarifCWEText    = "The MITRE Common Weakness Enumeration"
	// sarifControlRule prefixes the ID of a control's rule.
	sarifControlRule = "toolcert/control/"
)

// sarifCWERef names the CWE taxonomy: the first (and only) of the run's
// taxonomies.
var sarifCWERef = sarifComponentRef{Name: sarifCWEName, Index: 0}

type sarifTaxonomy struct {
	Name             string       `json:"name"`
	Organization     string       `json:"organization"`
	ShortDescription sarifMessage `json:"shortDescription"`
	InformationURI   string       `json:"informationUri"`
	IsComprehensive  bool         `json:"isComprehensive"`
	Taxa             []sarifTaxon `json:"taxa"`
}

type sarifTaxon struct {
	ID               string       `json:"id"`
	Name             string       `json:"name"`
	ShortDescription sarifMessage `json:"shortDescription"`
	HelpURI          string       `json:"helpUri,omitempty"`
}

type sarifComponentRef struct {
	Name  string `json:"name"`
	Index int    `json:"index"`
}

type sarifDescriptorRef struct {
	ID            string            `json:"id"`
	Index         int               `json:"index"`
	ToolComponent sarifComponentRef `json:"toolComponent"`
}

type sarifRelationship struct {
	Target sarifDescriptorRef `json:"target"`
	Kinds  []string           `json:"kinds"`
}

// sarifControlProps is what a control's rule says beyond its texts.
type sarifControlProps struct {
	ControlID string `json:"controlId"`
	Source    string `json:"source"`
	Section   string `json:"section,omitempty"`
	Status    string `json:"status"`
	Passed    int    `json:"passed"`
	Failed    int    `json:"failed"`
	// Levels is the control's state at each level.
	Levels []ControlLevel `json:"levels,omitempty"`
}

// sarifControlCounts counts the run's controls by state, at the level it
// certifies and, in Levels, at each level.
type sarifControlCounts struct {
	Evidenced    int                  `json:"evidenced"`
	Violated     int                  `json:"violated"`
	NotExercised int                  `json:"notExercised"`
	Levels       []sarifControlsLevel `json:"levels,omitempty"`
}

// sarifControlsLevel counts the run's controls by state at one level.
type sarifControlsLevel struct {
	Level        Level `json:"level"`
	Evidenced    int   `json:"evidenced"`
	Violated     int   `json:"violated"`
	NotExercised int   `json:"notExercised"`
}

func sarifControlCountsOf(controls []ControlResult) *sarifControlCounts {
	if len(controls) == 0 {
		return nil
	}
	e, v, n := ControlCounts(controls)
	out := &sarifControlCounts{Evidenced: e, Violated: v, NotExercised: n}
	for _, l := range Levels() {
		var at []ControlResult
		for _, cr := range controls {
			if cl, ok := cr.At(l); ok {
				at = append(at, ControlResult{Status: cl.Status})
			}
		}
		if len(at) == len(controls) {
			e, v, n := ControlCounts(at)
			out.Levels = append(out.Levels, sarifControlsLevel{Level: l, Evidenced: e, Violated: v, NotExercised: n})
		}
	}
	return out
}

// sarifControls is what the SARIF log says of a run's controls: their
// catalogue, and the CWE weaknesses among them as taxa.
type sarifControls struct {
	list []ControlResult
	cat  *Catalogue
	byID map[string]ControlResult
	// taxa are the CWE controls' taxa, in the controls' order; taxon maps
	// a CWE control's ID to its index.
	taxa  []sarifTaxon
	taxon map[string]int
}

// sarifControlsOf returns the SARIF view of controls, with their texts
// made inert.
func sarifControlsOf(controls []ControlResult) *sarifControls {
	s := &sarifControls{byID: map[string]ControlResult{}, taxon: map[string]int{}}
	for _, cr := range controls {
		cr.ID, cr.Title, cr.Source, cr.Section, cr.URL = inert(cr.ID), inert(cr.Title), inert(cr.Source), inert(cr.Section), inert(cr.URL)
		cr.CWE = inertAll(cr.CWE)
		s.list = append(s.list, cr)
		s.byID[cr.ID] = cr
		if n := cr.CWENumber(); n != "" {
			s.taxon[cr.ID] = len(s.taxa)
			s.taxa = append(s.taxa, sarifTaxon{ID: n, Name: cr.Title, ShortDescription: sarifMessage{cr.Title}, HelpURI: cr.URL})
		}
	}
	s.cat = CatalogueOf(s.list)
	return s
}

// taxonomies returns the run's taxonomies: the CWE, when a control is a
// CWE weakness.
func (s *sarifControls) taxonomies() []sarifTaxonomy {
	if len(s.taxa) == 0 {
		return nil
	}
	return []sarifTaxonomy{{Name: sarifCWEName, Organization: sarifCWEOrg, ShortDescription: sarifMessage{sarifCWEText},
		InformationURI: sarifCWEInfoURI, Taxa: s.taxa}}
}

// rules returns one rule per control, in the controls' order, after the
// rules of sarifRules.
func (s *sarifControls) rules() []sarifRule {
	var out []sarifRule
	for _, cr := range s.list {
		full := fmt.Sprintf("%s: %s.", cr.citation(), cr.Title)
		levels := ""
		if lv := cr.levelsText(); lv != "" {
			levels = " By level: " + lv + "."
		}
		rule := sarifRuleOf(sarifControlRule+cr.ID, "Control"+sarifName(cr.ID), "error", cr.Title, full,
			fmt.Sprintf("The scenarios and generated cases mapped to this control in the catalogue (docs/controls.md) give evidence for it; one that fails violates it. In this run: %s, %d passed, %d failed.%s",
				controlLabel(cr.Status), cr.Passed, cr.Failed, levels))
		rule.HelpURI = cr.URL
		rule.Relationships = s.relationships(cr)
		rule.Properties = &sarifControlProps{ControlID: cr.ID, Source: cr.Source, Section: cr.Section, Status: cr.Status,
			Passed: cr.Passed, Failed: cr.Failed, Levels: cr.Levels}
		out = append(out, rule)
	}
	return out
}

// relationships relates a control's rule to its CWE weaknesses: equal to
// the one it is, relevant to those it names.
func (s *sarifControls) relationships(cr ControlResult) []sarifRelationship {
	var out []sarifRelationship
	if i, ok := s.taxon[cr.ID]; ok {
		out = append(out, sarifRelationship{Target: s.ref(cr.ID, i), Kinds: []string{"equal"}})
	}
	for _, id := range cr.CWE {
		if i, ok := s.taxon[id]; ok && id != cr.ID {
			out = append(out, sarifRelationship{Target: s.ref(id, i), Kinds: []string{"relevant"}})
		}
	}
	return out
}

// ref names the CWE taxon of the control id, at index i.
func (s *sarifControls) ref(id string, i int) sarifDescriptorRef {
	return sarifDescriptorRef{ID: s.taxa[i].ID, Index: i, ToolComponent: sarifCWERef}
}

// taxaOfScenario returns the CWE taxa of the controls sc's feature file
// and tags give evidence for.
func (s *sarifControls) taxaOfScenario(sc Scenario) []sarifDescriptorRef {
	if s.cat == nil {
		return nil
	}
	return s.taxaOf(s.cat.ScenarioControls(sc))
}

// taxaOfCase returns the CWE taxa of the controls c's operator gives
// evidence for.
func (s *sarifControls) taxaOfCase(c Case) []sarifDescriptorRef {
	if s.cat == nil {
		return nil
	}
	return s.taxaOf(s.cat.CaseControls(c))
}

// taxaOf returns the CWE taxa of the controls ids, each control's own and
// those it names, once each, in the taxonomy's order.
func (s *sarifControls) taxaOf(ids []string) []sarifDescriptorRef {
	seen := map[int]bool{}
	for _, id := range ids {
		for _, cwe := range append([]string{id}, s.byID[id].CWE...) {
			if i, ok := s.taxon[cwe]; ok {
				seen[i] = true
			}
		}
	}
	var out []sarifDescriptorRef
	for i, t := range s.taxa {
		if seen[i] {
			out = append(out, sarifDescriptorRef{ID: t.ID, Index: i, ToolComponent: sarifCWERef})
		}
	}
	return out
}

// violations adds one result per violated control, located at its first
// failure's scenario; it is suppressed when the baseline expects every
// failure.
func (b *sarifBuilder) violations(r *Result) {
	for i, cr := range b.controls.list {
		if cr.Status != ControlViolated || len(cr.Violations) == 0 {
			continue
		}
		sc := scenarioByID(r.Scenarios, cr.Violations[0].Scenario)
		mark := ""
		if cr.Expected == cr.Failed {
			mark = ExpectedFailure
		}
		res := b.add(sc, nil, sarifKind(len(sarifRules())+i), violationText(cr), mark, cr.ID)
		res.Properties.ControlID = cr.ID
		res.Taxa = b.controls.taxaOf([]string{cr.ID})
	}
}

// scenarioByID returns the scenario of scs with id, or one that names only
// the ID when there is none.
func scenarioByID(scs []Scenario, id string) Scenario {
	for _, sc := range scs {
		if sc.ID == id {
			return sc
		}
	}
	return Scenario{ID: id}
}

// violationText says which control is violated, by how many failures, and
// names the first of them.
func violationText(cr ControlResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Control %s is violated: %d of %d scenarios and generated cases mapped to it failed", cr.named(), cr.Failed, cr.Failed+cr.Passed)
	if cr.Expected > 0 {
		fmt.Fprintf(&b, " (%d of them expected by the baseline)", cr.Expected)
	}
	b.WriteString(".")
	for _, v := range atMost(cr.Violations, 5) {
		fmt.Fprintf(&b, "\n%s", controlRefText(v))
	}
	if len(cr.Violations) > 5 || cr.Failed > len(cr.Violations) {
		fmt.Fprintf(&b, "\n... and %d more", cr.Failed-min(5, len(cr.Violations)))
	}
	return b.String()
}

// controlRefText names a failure: the scenario, or the case and its
// scenario.
func controlRefText(v ControlRef) string {
	if v.Case == "" {
		return "scenario " + v.Scenario
	}
	return "case " + v.Case + " (scenario " + v.Scenario + ")"
}

// sarifName makes id a rule name: its letters and digits.
func sarifName(id string) string {
	return strings.Map(func(r rune) rune {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return -1
	}, id)
}

// controlLabel is a control's state as a reader reads it: "not exercised",
// not "not_exercised".
func controlLabel(status string) string {
	return strings.ReplaceAll(status, "_", " ")
}
