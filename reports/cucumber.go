package reports

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// The cucumber JSON format, as cucumber-js writes it and its schema
// (cucumber-json-schema's cucumber-js.json) describes it, which
// cucumber-html-reporter reads (cucumber_jvm.go reshapes it for the tools
// built for cucumber-jvm, such as the Jenkins cucumber plugin). Every line
// is the line in the feature file the model records; 0 where it records
// none (a hand-built result, a synthetic feature).
type (
	cucumberFeature struct {
		URI         string            `json:"uri"`
		ID          string            `json:"id"`
		Keyword     string            `json:"keyword"`
		Name        string            `json:"name"`
		Description string            `json:"description"`
		Line        int               `json:"line"`
		Tags        []cucumberTag     `json:"tags"`
		Elements    []cucumberElement `json:"elements"`
		seen        map[string]int    // element IDs given so far, to keep them unique
	}
	cucumberElement struct {
		ID          string         `json:"id"`
		Keyword     string         `json:"keyword"`
		Type        string         `json:"type"`
		Name        string         `json:"name"`
		Description string         `json:"description"`
		Line        int            `json:"line"`
		Tags        []cucumberTag  `json:"tags"`
		Steps       []cucumberStep `json:"steps"`
	}
	cucumberTag struct {
		Name   string `json:"name"`
		Line   int    `json:"line"`
		Column int    `json:"-"` // cucumber-js writes none; cucumber-jvm a feature tag's
	}
	cucumberStep struct {
		Keyword string `json:"keyword"`
		Name    string `json:"name"`
		Line    int    `json:"line"`
		// Arguments are the step's doc string or data table: toolcert's
		// model keeps neither, so it is always empty.
		Arguments []any          `json:"arguments"`
		Result    cucumberResult `json:"result"`
	}
	cucumberResult struct {
		Status       string `json:"status"`
		Duration     int64  `json:"duration"` // nanoseconds
		ErrorMessage string `json:"error_message,omitempty"`
	}
)

// CucumberJSON renders r as cucumber JSON: one feature per feature file, in
// the order the scenarios first name it, one scenario element per scenario,
// with the feature's title, description and tags, and every line, as the
// feature file writes them when the model has them ([Scenario.Gherkin]).
//
// Cucumber tools derive a scenario's status from its steps, so the steps
// carry everything: the scenario's error and evidence are appended to the
// error_message of its first failed step; a synthetic "* toolcert verdict"
// step is added when no step of its own can carry them (a leak found after
// the last step, a skipped scenario without steps); each generated case is a
// synthetic "* generated case <ID>" step after the scenario's own. A
// synthetic step has the scenario's line: it is written nowhere else. A
// baseline's expected failure turns the scenario's failed steps into skipped
// ones whose message starts with "expected failure (baseline): ", and an
// unexpected pass adds a failed step; a case's step follows its own mark.
// Cucumber has no status for a step that does not apply to the target: the
// step is skipped (the closest status the format has: it did not run), and
// its error_message, starting with "not applicable: ", carries the reason.
// Nor for a scenario or case the level does not judge: a strict-only
// scenario's failed steps are skipped, and its first failed step (or a
// verdict step) says "strict only: level safe does not judge it" and what
// level strict found; a strict-only case's step is skipped, saying so. The
// format has no run-level field: every scenario is tagged with the level
// the run certifies ("@level:strict"), and with its status at another
// level where that differs ("@level:safe:passed"); the evidence of a
// failure, what counts at the certified level first; an interrupted run
// adds a last feature, "toolcert run", with one failed scenario saying so.
// Text passes through [inert]. [CucumberJVM] writes the same features in
// the form cucumber-jvm writes.
func CucumberJSON(w io.Writer, r *Result) error {
	return encodeCucumber(w, cucumberDocument(r))
}

// cucumberDocument is the features of r's cucumber JSON, in the form
// cucumber-js writes: r's scenarios by feature, then the interrupted run's
// feature if any.
func cucumberDocument(r *Result) []cucumberFeature {
	r = inertResult(r)
	features := cucumberFeatures(r.Scenarios, r.Controls, r.CertifiedLevel())
	if r.Summary.Interrupted {
		features = append(features, cucumberInterrupted())
	}
	return features
}

// encodeCucumber writes features, indented as cucumber writes them.
func encodeCucumber(w io.Writer, features any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(features); err != nil {
		return fmt.Errorf("encode cucumber json: %w", err)
	}
	return nil
}

// cucumberFeatures groups scenarios by feature, in first-seen order; each
// scenario is tagged with the level l the run certifies and the controls
// it gives evidence for.
func cucumberFeatures(scs []Scenario, controls []ControlResult, l Level) []cucumberFeature {
	out := []cucumberFeature{}
	index := map[string]int{}
	for _, sc := range scs {
		i, ok := index[sc.Feature]
		if !ok {
			i = len(out)
			index[sc.Feature] = i
			out = append(out, cucumberFeatureOf(sc))
		}
		out[i].add(sc, controls, l)
	}
	return out
}

// cucumberControlTags returns a tag "@control:<ID>" for each control sc
// gives evidence for (its feature file, one of its tags, or the operator
// of one of its cases maps to it), at line: cucumber JSON has no place for
// the run as a whole, so the controls travel on the scenarios
// (docs/controls.md).
func cucumberControlTags(sc Scenario, controls []ControlResult, line int) []cucumberTag {
	var out []cucumberTag
	base := path.Base(sc.Feature)
	for _, cr := range controls {
		m := cr.EvidencedBy
		hit := slices.Contains(m.Features, base) || slices.ContainsFunc(sc.Tags, func(t string) bool { return slices.Contains(m.Tags, t) }) ||
			slices.ContainsFunc(sc.Cases, func(c Case) bool { return slices.Contains(m.Operators, c.Operator) })
		if hit {
			out = append(out, cucumberTag{Name: inert("@control:" + cr.ID), Line: line})
		}
	}
	return out
}

// cucumberLevelTags returns the tags, at line, that say sc's status at
// each level: "@level:<l>" for the level l the run certifies, whose status
// the scenario's steps carry, and "@level:<other>:<status>" for another
// level at which its status differs (a scenario that passes at level safe
// and fails at strict: "@level:strict:failed").
func cucumberLevelTags(sc Scenario, l Level, line int) []cucumberTag {
	out := []cucumberTag{{Name: "@level:" + string(l), Line: line}}
	for _, other := range Levels() {
		if st := sc.StatusAt(other); other != l && st != sc.Status {
			out = append(out, cucumberTag{Name: "@level:" + string(other) + ":" + string(st), Line: line})
		}
	}
	return out
}

// cucumberFeatureOf returns the empty feature of sc's feature file: as the
// file writes it when the model has it, else named by the file's base name.
func cucumberFeatureOf(sc Scenario) cucumberFeature {
	f := cucumberFeature{URI: sc.Feature, Keyword: "Feature", Name: "unnamed feature",
		Tags: []cucumberTag{}, Elements: []cucumberElement{}, seen: map[string]int{}}
	if sc.Feature != "" {
		f.Name = strings.TrimSuffix(path.Base(sc.Feature), ".feature")
	}
	if g := sc.Gherkin; g != nil {
		f.Keyword = cmp.Or(g.Feature.Keyword, f.Keyword)
		f.Name = cmp.Or(g.Feature.Name, f.Name)
		f.Description, f.Line, f.Tags = g.Feature.Description, g.Feature.Line, cucumberTags(g.Feature.Tags)
	}
	f.ID = cucumberID(f.Name)
	return f
}

// add appends sc as an element with an ID unique in f: "<feature>;<name>",
// then ";2", ";3" for further scenarios of the same name (outline rows).
// An outline's scenario has the line of its example row, as cucumber-js
// gives it.
func (f *cucumberFeature) add(sc Scenario, controls []ControlResult, l Level) {
	id := f.ID + ";" + cucumberID(sc.Name)
	f.seen[id]++
	if n := f.seen[id]; n > 1 {
		id += ";" + strconv.Itoa(n)
	}
	e := cucumberElement{ID: id, Keyword: "Scenario", Type: "scenario", Name: sc.Name, Line: sc.Line,
		Tags: make([]cucumberTag, 0, len(sc.Tags))}
	for _, t := range sc.Tags {
		e.Tags = append(e.Tags, cucumberTag{Name: t})
	}
	if g := sc.Gherkin; g != nil {
		e.Keyword, e.Description = cmp.Or(g.Keyword, e.Keyword), g.Description
		e.Line = cmp.Or(g.Row, sc.Line)
		if len(g.Tags) == len(sc.Tags) {
			e.Tags = cucumberTags(g.Tags)
		}
	}
	e.Tags = append(e.Tags, cucumberLevelTags(sc, l, e.Line)...)
	e.Tags = append(e.Tags, cucumberControlTags(sc, controls, e.Line)...)
	e.Steps = cucumberScenarioSteps(sc, e.Line, l)
	for _, c := range sc.Cases {
		e.Steps = append(e.Steps, cucumberCaseStep(c, e.Line, l))
	}
	f.Elements = append(f.Elements, e)
}

// cucumberTags renders tags with their lines; never nil.
func cucumberTags(tags []Tag) []cucumberTag {
	out := make([]cucumberTag, 0, len(tags))
	for _, t := range tags {
		out = append(out, cucumberTag(t))
	}
	return out
}

// cucumberID is cucumber's ID of a name: lower case, blanks as dashes.
func cucumberID(name string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return '-'
		}
		return unicode.ToLower(r)
	}, name)
}

// cucumberScenarioSteps returns the scenario's own steps, the verdict step
// when one is needed, with the scenario's error and evidence (what counts
// at level l first) on the step that carries its outcome, a strict-only
// scenario's failed steps skipped, and the scenario's baseline mark
// applied; line is the line of the synthetic steps.
func cucumberScenarioSteps(sc Scenario, line int, l Level) []cucumberStep {
	steps := make([]cucumberStep, 0, len(sc.Steps)+len(sc.Cases)+2)
	for _, st := range sc.Steps {
		steps = append(steps, cucumberStepOf(st))
	}
	i := cucumberFirstFailed(steps)
	if i < 0 && sc.Status == NotApplicable {
		i = slices.IndexFunc(sc.Steps, func(st Step) bool { return st.Status == NotApplicable })
	}
	if i < 0 && (sc.Status == StrictOnly || cucumberNeedsVerdict(sc, steps)) {
		steps = append(steps, cucumberVerdict(sc, line))
		i = len(steps) - 1
	}
	if i >= 0 {
		res := &steps[i].Result
		scErr := cucumberScenarioError(sc)
		if scErr == res.ErrorMessage {
			scErr = ""
		}
		res.ErrorMessage = joinLines(res.ErrorMessage, scErr, evidenceTrace(sc.Evidence, l))
		if res.ErrorMessage == "" && sc.Status == NotApplicable {
			res.ErrorMessage = notApplicableMessage("")
		}
	}
	if sc.Status == StrictOnly {
		cucumberStrictOnly(steps, i, sc.StatusAt(LevelStrict))
	}
	switch sc.Baseline {
	case ExpectedFailure:
		for j := range steps {
			steps[j] = cucumberBaselined(steps[j], ExpectedFailure)
		}
	case UnexpectedPass:
		mark := cucumberSynthetic("the baseline lists this scenario as failing", line)
		steps = append(steps, cucumberBaselined(mark, UnexpectedPass))
	}
	return cucumberExplained(steps)
}

// cucumberStrictOnly skips the failed steps of a strict-only scenario
// (they failed at level strict, which the run does not certify), each
// saying so; the step at i, which carries the scenario's outcome, says
// too what level strict found.
func cucumberStrictOnly(steps []cucumberStep, i int, atStrict Status) {
	for j := range steps {
		res := &steps[j].Result
		switch {
		case j == i:
			res.Status = string(Skipped)
			res.ErrorMessage = joinLines(strictOnlyText(atStrict), res.ErrorMessage)
		case res.Status == string(Failed):
			res.Status = string(Skipped)
			res.ErrorMessage = joinLines(strictOnlyMessage, res.ErrorMessage)
		}
	}
}

// cucumberExplained gives every failed step of steps an error_message,
// which cucumber's schema requires of a failed step.
func cucumberExplained(steps []cucumberStep) []cucumberStep {
	for i := range steps {
		if res := &steps[i].Result; res.Status == string(Failed) && res.ErrorMessage == "" {
			res.ErrorMessage = "the step failed"
		}
	}
	return steps
}

// cucumberSynthetic is a step toolcert adds, at line: it is written in no
// feature file.
func cucumberSynthetic(name string, line int) cucumberStep {
	return cucumberStep{Keyword: "* ", Name: name, Line: line, Arguments: []any{}}
}

// cucumberStepOf renders one step of the model; a not-applicable step's
// error says that it does not apply.
func cucumberStepOf(st Step) cucumberStep {
	keyword := "* "
	if st.Keyword != "" {
		keyword = st.Keyword + " "
	}
	msg := st.Error
	if st.Status == NotApplicable && msg != "" {
		msg = notApplicableMessage(msg)
	}
	return cucumberStep{Keyword: keyword, Name: st.Text, Line: st.Line, Arguments: []any{}, Result: cucumberResult{
		Status: cucumberStatus(st.Status), Duration: int64(st.Duration), ErrorMessage: msg}}
}

// cucumberStatus maps a status of the model onto cucumber's: not
// applicable and strict only are skipped, the closest status cucumber
// has; like [Result.Tally], anything else neither passed nor skipped is
// failed.
func cucumberStatus(s Status) string {
	switch s {
	case Passed, Skipped:
		return string(s)
	case NotApplicable, StrictOnly:
		return string(Skipped)
	}
	return string(Failed)
}

// cucumberScenarioError is the scenario's error as the step that carries
// its outcome says it: for a not-applicable scenario, starting with "not
// applicable: ".
func cucumberScenarioError(sc Scenario) string {
	if sc.Status == NotApplicable && sc.Error != "" {
		return notApplicableMessage(sc.Error)
	}
	return sc.Error
}

func cucumberFirstFailed(steps []cucumberStep) int {
	for i, st := range steps {
		if st.Result.Status == string(Failed) {
			return i
		}
	}
	return -1
}

// cucumberNeedsVerdict reports whether a scenario none of whose steps
// failed needs a verdict step: its steps alone would show another status
// (cucumber tools read a scenario without steps as passed), or it has an
// error or evidence to carry.
func cucumberNeedsVerdict(sc Scenario, steps []cucumberStep) bool {
	shown := string(Passed)
	for _, st := range steps {
		if st.Result.Status == string(Skipped) {
			shown = string(Skipped)
		}
	}
	return shown != cucumberStatus(sc.Status) || sc.Error != "" || len(Failing(sc.Evidence)) > 0
}

// cucumberVerdict is the synthetic step, at line, that carries a
// scenario's status when none of its own steps does.
func cucumberVerdict(sc Scenario, line int) cucumberStep {
	msg := cucumberScenarioError(sc)
	if msg == "" && sc.Status == Skipped {
		msg = skipIsNoPass
	}
	st := cucumberSynthetic("toolcert verdict", line)
	st.Result = cucumberResult{Status: cucumberStatus(sc.Status), ErrorMessage: msg}
	return st
}

// cucumberCaseStep renders one generated case as a synthetic step at line,
// with its reproducer and evidence (what counts at level l first) when it
// did not pass; a strict-only case's step is skipped, saying so first.
func cucumberCaseStep(c Case, line int, l Level) cucumberStep {
	st := cucumberSynthetic("generated case "+c.ID, line)
	st.Result = cucumberResult{Status: cucumberStatus(c.Status), Duration: int64(c.Duration)}
	switch c.Status {
	case Passed:
	case StrictOnly:
		st.Result.ErrorMessage = joinLines(strictOnlyText(c.StatusAt(LevelStrict)), reproduceLine(c), evidenceTrace(c.Evidence, l))
	default:
		st.Result.ErrorMessage = cmp.Or(joinLines(reproduceLine(c), evidenceTrace(c.Evidence, l)), "generated case failed")
	}
	return cucumberBaselined(st, c.Baseline)
}

// cucumberBaselined turns st into what a baseline mark says, as
// [baselined] does for JUnit: an expected failure is skipped with the
// failure's message, an unexpected pass fails.
func cucumberBaselined(st cucumberStep, mark string) cucumberStep {
	switch {
	case mark == ExpectedFailure && st.Result.Status == string(Failed):
		st.Result.Status = string(Skipped)
		st.Result.ErrorMessage = xfailPrefix + st.Result.ErrorMessage
	case mark == UnexpectedPass:
		st.Result.Status = string(Failed)
		st.Result.ErrorMessage = xpassMessage
	}
	return st
}

// cucumberInterrupted is the feature that says the run was interrupted. It
// is written in no feature file: its lines are 0.
func cucumberInterrupted() cucumberFeature {
	step := cucumberSynthetic("every scenario ran", 0)
	step.Result = cucumberResult{Status: string(Failed), ErrorMessage: interruptedMessage}
	return cucumberFeature{URI: "toolcert", ID: "toolcert-run", Keyword: "Feature", Name: "toolcert run",
		Tags: []cucumberTag{}, Elements: []cucumberElement{{ID: "toolcert-run;interrupted", Keyword: "Scenario",
			Type: "scenario", Name: "the run was interrupted", Tags: []cucumberTag{}, Steps: []cucumberStep{step}}}}
}

// evidenceTrace writes evidence as text, what counts at level l first, one
// "evidence [kind] message" line each ("[kind, level strict]" for
// evidence about one level's verdict only), followed by its diff if any.
func evidenceTrace(ev []Evidence, l Level) string {
	var b strings.Builder
	for _, e := range evidenceFirst(ev, l) {
		fmt.Fprintf(&b, "evidence [%s] %s\n", evidenceKind(e), e.Message)
		if e.Diff != "" {
			fmt.Fprintf(&b, "%s\n", e.Diff)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// reproduceLine is the line that tells how to run c alone, or "" when c
// has no reproducer.
func reproduceLine(c Case) string {
	if c.Reproducer == "" {
		return ""
	}
	return "reproduce: " + c.Reproducer
}

// joinLines joins the non-empty parts, one per line.
func joinLines(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "\n")
}
