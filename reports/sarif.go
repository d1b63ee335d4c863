package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The SARIF document's fixed values, and the bounds of a result's message.
const (
	sarifSchema      = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion     = "2.1.0"
	sarifInfoURI     = "https://github.com/toolcert/toolcert"
	sarifFingerprint = "toolcert/v1"
	sarifMaxBytes    = 4 << 10
	sarifMaxLines    = 40
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Results     []sarifResult     `json:"results"`
	// Taxonomies holds the CWE taxonomy when the run's controls name CWE
	// weaknesses (see sarif_controls.go).
	Taxonomies []sarifTaxonomy `json:"taxonomies,omitempty"`
	Properties sarifRunProps   `json:"properties"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name                string              `json:"name"`
	Version             string              `json:"version,omitempty"`
	InformationURI      string              `json:"informationUri"`
	Rules               []sarifRule         `json:"rules"`
	SupportedTaxonomies []sarifComponentRef `json:"supportedTaxonomies,omitempty"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	Name                 string       `json:"name"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	FullDescription      sarifMessage `json:"fullDescription"`
	Help                 sarifMessage `json:"help"`
	HelpURI              string       `json:"helpUri,omitempty"`
	DefaultConfiguration sarifConfig  `json:"defaultConfiguration"`
	// Relationships relate a control's rule to its CWE weaknesses.
	Relationships []sarifRelationship `json:"relationships,omitempty"`
	// Properties says, for a control's rule, its source and its state.
	Properties *sarifControlProps `json:"properties,omitempty"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	StartTimeUTC        string              `json:"startTimeUtc,omitempty"`
	EndTimeUTC          string              `json:"endTimeUtc,omitempty"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}

type sarifRunProps struct {
	Seed   uint64 `json:"seed"`
	Target string `json:"target"`
	// Level is the level the run certifies: the results are findings at
	// that level; the summary counts each level's statuses (its levels).
	Level             Level    `json:"level"`
	Summary           Summary  `json:"summary"`
	BaselineUnmatched []string `json:"baselineUnmatched,omitempty"`
	// Controls counts the run's controls by state, when it has any.
	Controls *sarifControlCounts `json:"controls,omitempty"`
}

type sarifResult struct {
	RuleID    string `json:"ruleId"`
	RuleIndex int    `json:"ruleIndex"`
	// Kind is "" for a finding (SARIF's default kind, fail) and
	// sarifKindNotApplicable for a scenario that did not apply, or a
	// scenario or case the level does not judge.
	Kind                string             `json:"kind,omitempty"`
	Level               string             `json:"level"`
	Message             sarifMessage       `json:"message"`
	Locations           []sarifLocation    `json:"locations,omitempty"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	// Taxa are the CWE weaknesses of the controls the scenario or case
	// gives evidence for.
	Taxa       []sarifDescriptorRef `json:"taxa,omitempty"`
	Properties sarifResultProps     `json:"properties"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification"`
}

// sarifResultProps says which scenario a result is about and, for a
// generated case or a leak, which case and which canary path.
type sarifResultProps struct {
	ScenarioID string `json:"scenarioId"`
	Scenario   string `json:"scenario"`
	// ControlID names the control a violated control's result is about.
	ControlID string `json:"controlId,omitempty"`
	*sarifCaseProps
	Planted  string `json:"planted,omitempty"`
	Surfaced string `json:"surfaced,omitempty"`
	Encoding string `json:"encoding,omitempty"`
}

type sarifCaseProps struct {
	CaseID     string `json:"caseId"`
	Tool       string `json:"tool"`
	Operator   string `json:"operator"`
	Field      string `json:"field"`
	Reproducer string `json:"reproducer"`
}

// sarifKind is a kind of finding: the index of its rule in sarifRules.
type sarifKind int

// The kinds of finding, in the order of sarifRules.
const (
	sarifLeak sarifKind = iota
	sarifScenarioFailed
	sarifCaseFailed
	sarifSkipped
	sarifUnexpectedPass
	sarifNotApplicable
	sarifStrictOnly
	sarifMark
)

// sarifKindNotApplicable is SARIF's result kind for a check that does not
// apply to what was analyzed; its level must be "none".
const sarifKindNotApplicable = "notApplicable"

// sarifRules returns one rule per kind of finding, indexed by sarifKind.
// Rule IDs are stable: dashboards track findings by them.
func sarifRules() []sarifRule {
	return []sarifRule{
		sarifRuleOf("toolcert/leak", "CanaryLeak", "error", "A canary reached the agent",
			"A canary planted where the agent must never see it (an upstream secret, a rejected body) surfaced in agent-visible output.",
			"The adapter forwards data it must drop. The result says where the canary was planted, where it surfaced and in which encoding: close that path."),
		sarifRuleOf("toolcert/scenario-failed", "ScenarioFailed", "error", "A certification scenario failed",
			"The adapter did not behave as the scenario of the feature file requires.",
			"The message holds the scenario's error and evidence. Run the scenario alone with the seed of the run (see the run's properties) to reproduce it."),
		sarifRuleOf("toolcert/case-failed", "CaseFailed", "error", "A generated hostile case failed",
			"A variant generated from the hostile space (an operator applied to a field of a tool's response) broke the adapter's contract.",
			"The result's properties hold the case's tool, operator, field and reproducer: run the reproducer to replay this case alone."),
		sarifRuleOf("toolcert/skipped", "ScenarioSkipped", "warning", "A scenario did not run",
			"A skipped scenario is not a pass: the run certified nothing of what it covers.",
			"Implement the missing or pending step, lift the filter that excluded it, or rerun the run if it was interrupted."),
		sarifRuleOf("toolcert/unexpected-pass", "UnexpectedPass", "warning", "A baseline entry now passes",
			"The baseline lists this scenario or case as an expected failure, but it passed.",
			"The baseline entry is stale: remove it from the baseline so that a regression fails the run again."),
		sarifRuleOf("toolcert/not-applicable", "ScenarioNotApplicable", "none", "A scenario does not apply to the target",
			"A step of the scenario needs a capability the target lacks (an audit log the harness can read, a policy with sessions and grants, approvals): the run certified nothing of what it covers, and it is neither a pass nor a failure.",
			"The message says which capability is missing. Certify that behaviour against a target that has it, or run with --require-all to count such scenarios as failures."),
		sarifRuleOf("toolcert/strict-only", "StrictOnly", "none", "Level safe does not judge this scenario or case",
			"The run certifies level safe, and the scenario (tagged @strict: it asserts protocol v1 beyond what level safe asks) or the generated case (a reject of the corpus that may be read past, with no honest answer to compare with) is judged at level strict only: the run certified nothing of what it covers, and it is neither a pass nor a failure.",
			"The message says what level strict found. Certify level strict (--level strict) to judge it."),
		sarifRuleOf("toolcert/mark", "AcceptedMark", "error", "An answer that should have been refused was shown to the agent",
			"The generator's mark, planted in a hostile variant of an upstream answer, reached the agent in a call that succeeded: the adapter accepted the answer and showed it.",
			"The result says where the mark was planted and where it surfaced; the case's reproducer replays it. Refuse the answer, or read past what the agent is not shown."),
	}
}

func sarifRuleOf(id, name, level, short, full, help string) sarifRule {
	return sarifRule{ID: id, Name: name, ShortDescription: sarifMessage{short}, FullDescription: sarifMessage{full},
		Help: sarifMessage{full + " " + help}, DefaultConfiguration: sarifConfig{level}}
}

// SARIF renders r as a SARIF 2.1.0 log for code-scanning dashboards: one
// result per finding at the level r certifies (a failed scenario or case,
// a leak, an accepted mark, a skip, an unexpected pass, a violated
// control), located at the scenario's line in its feature file; a finding
// says the evidence that counts at that level only, and evidence about the
// other level's verdict makes no result. Failures the baseline expects are
// kept, suppressed. A not-applicable scenario is a result of kind
// "notApplicable" and level "none", saying why, and so is a strict-only
// scenario or case (rule toolcert/strict-only). Passes produce no result.
// The run's properties name the level and count each level's statuses. Each control of the run
// has a rule that says its state; a CWE weakness among them is a taxon of
// the run's CWE taxonomy, related to the rules of the controls that name
// it and listed in the taxa of each finding about a scenario or case that
// gives evidence for it. Every text is inert: invisible characters are
// visible escapes, control characters are dropped.
func SARIF(w io.Writer, r *Result) error {
	r = inertResult(r)
	ctl := sarifControlsOf(r.Controls)
	rules := append(sarifRules(), ctl.rules()...)
	b := &sarifBuilder{rules: rules, seen: map[string]int{}, results: []sarifResult{}, controls: ctl, level: r.CertifiedLevel()}
	for _, sc := range r.Scenarios {
		b.scenario(sc)
	}
	b.violations(r)
	driver := sarifDriver{Name: "toolcert", Version: r.Version, InformationURI: sarifInfoURI, Rules: rules}
	run := sarifRun{
		Tool:        sarifTool{Driver: driver},
		Invocations: []sarifInvocation{sarifInvocationOf(r)},
		Results:     b.results,
		Taxonomies:  ctl.taxonomies(),
		Properties: sarifRunProps{Seed: r.Seed, Target: r.Target, Level: r.CertifiedLevel(), Summary: r.Summary, BaselineUnmatched: r.BaselineUnmatched,
			Controls: sarifControlCountsOf(r.Controls)},
	}
	if run.Taxonomies != nil {
		run.Tool.Driver.SupportedTaxonomies = []sarifComponentRef{sarifCWERef}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}); err != nil {
		return fmt.Errorf("encode sarif: %w", err)
	}
	return nil
}

// sarifInvocationOf says whether the run succeeded: no failure the
// baseline does not explain, no unexpected pass, no skip, no interruption.
func sarifInvocationOf(r *Result) sarifInvocation {
	s := r.Summary
	v, _ := s.Verdict()
	inv := sarifInvocation{ExecutionSuccessful: v == VerdictPassed}
	if !r.StartedAt.IsZero() {
		inv.StartTimeUTC = r.StartedAt.UTC().Format(time.RFC3339Nano)
		inv.EndTimeUTC = r.StartedAt.Add(time.Duration(r.Duration)).UTC().Format(time.RFC3339Nano)
	}
	if s.Interrupted {
		inv.Notifications = append(inv.Notifications, sarifNotification{Level: "error",
			Message: sarifMessage{"The run was interrupted before every scenario ran: the scenarios that did not run are skipped."}})
	}
	if len(r.BaselineUnmatched) > 0 {
		inv.Notifications = append(inv.Notifications, sarifNotification{Level: "note",
			Message: sarifMessage{fmt.Sprintf("%d baseline entries matched no scenario or case of this run (see the run's baselineUnmatched property).", len(r.BaselineUnmatched))}})
	}
	return inv
}

// sarifBuilder collects the results of a run at the level it certifies
// and keeps their fingerprints unique.
type sarifBuilder struct {
	rules    []sarifRule
	seen     map[string]int
	results  []sarifResult
	controls *sarifControls
	level    Level
}

// scenario adds the findings of one scenario and of its generated cases.
func (b *sarifBuilder) scenario(sc Scenario) {
	switch {
	case sc.Status == Skipped:
		b.add(sc, nil, sarifSkipped, skippedText(sc), "", sc.ID)
	case sc.Status == NotApplicable:
		b.add(sc, nil, sarifNotApplicable, notApplicableText(sc), "", sc.ID).Kind = sarifKindNotApplicable
	case sc.Status == StrictOnly:
		text := fmt.Sprintf("Scenario %q is %s.", sc.Name, strictOnlyText(sc.StatusAt(LevelStrict)))
		b.add(sc, nil, sarifStrictOnly, text, "", sc.ID).Kind = sarifKindNotApplicable
	case sc.Status != Passed:
		b.add(sc, nil, sarifScenarioFailed, scenarioFailedText(sc, b.level), sc.Baseline, sc.ID)
	case sc.Baseline == UnexpectedPass:
		b.add(sc, nil, sarifUnexpectedPass, fmt.Sprintf("Scenario %q passed, but the baseline lists it as failing: remove it from the baseline.", sc.Name), "", sc.ID)
	}
	b.leaks(sc, nil, sc.Evidence, sc.Baseline)
	for i := range sc.Cases {
		b.variant(sc, &sc.Cases[i])
	}
}

// variant adds the findings of one generated case.
func (b *sarifBuilder) variant(sc Scenario, c *Case) {
	switch {
	case c.Status == StrictOnly:
		text := fmt.Sprintf("Case %s of scenario %q is %s.\nReproduce: %s", c.ID, sc.Name, strictOnlyText(c.StatusAt(LevelStrict)), c.Reproducer)
		b.add(sc, c, sarifStrictOnly, text, "", sc.ID, c.ID).Kind = sarifKindNotApplicable
	case c.Status != Passed:
		b.add(sc, c, sarifCaseFailed, caseFailedText(sc, c, b.level), c.Baseline, sc.ID, c.ID)
	case c.Baseline == UnexpectedPass:
		b.add(sc, c, sarifUnexpectedPass, fmt.Sprintf("Case %s of scenario %q passed, but the baseline lists it as failing: remove it from the baseline.", c.ID, sc.Name), "", sc.ID, c.ID)
	}
	b.leaks(sc, c, c.Evidence, c.Baseline)
}

// leaks adds one result per leak and per accepted mark that counts at the
// level the run certifies. The fingerprint names where the canary or mark
// was planted and surfaced, never the canary: canaries differ per seed,
// the finding does not.
func (b *sarifBuilder) leaks(sc Scenario, c *Case, ev []Evidence, mark string) {
	caseID := ""
	if c != nil {
		caseID = c.ID
	}
	for _, e := range evidenceAt(ev, b.level) {
		kind := sarifLeak
		switch e.Kind {
		case EvidenceLeak:
		case EvidenceMark:
			kind = sarifMark
		default:
			continue
		}
		text := fmt.Sprintf("Scenario %q: %s", sc.Name, e.Message)
		res := b.add(sc, c, kind, text, mark, sc.ID, caseID, e.Planted, e.Surfaced, e.Encoding)
		res.Properties.Planted, res.Properties.Surfaced, res.Properties.Encoding = e.Planted, e.Surfaced, e.Encoding
	}
}

// add appends a result of kind about sc (and c when not nil), suppressed
// when mark says the baseline expects it, and returns it for the caller to
// complete. key names the finding across runs.
func (b *sarifBuilder) add(sc Scenario, c *Case, kind sarifKind, text, mark string, key ...string) *sarifResult {
	rule := b.rules[kind]
	res := sarifResult{
		RuleID: rule.ID, RuleIndex: int(kind), Level: rule.DefaultConfiguration.Level,
		Message:             sarifMessage{clipText(stripTerminal(text), sarifMaxLines, sarifMaxBytes)},
		Locations:           sarifLocations(sc.Feature, sc.Line),
		PartialFingerprints: map[string]string{sarifFingerprint: b.fingerprint(append([]string{rule.ID}, key...))},
		Properties:          sarifResultProps{ScenarioID: sc.ID, Scenario: sc.Name},
	}
	res.Taxa = b.controls.taxaOfScenario(sc)
	if c != nil {
		res.Properties.sarifCaseProps = &sarifCaseProps{CaseID: c.ID, Tool: c.Tool, Operator: c.Operator, Field: c.Field, Reproducer: c.Reproducer}
		res.Taxa = b.controls.taxaOfCase(*c)
	}
	if mark == ExpectedFailure {
		res.Suppressions = []sarifSuppression{{Kind: "external", Justification: "expected failure listed in the baseline"}}
	}
	b.results = append(b.results, res)
	return &b.results[len(b.results)-1]
}

// fingerprint hashes the parts that name a finding. A finding that repeats
// within a run (two identical leaks) gets its occurrence number hashed in,
// so each result keeps a fingerprint of its own.
func (b *sarifBuilder) fingerprint(parts []string) string {
	sum := sarifHash(parts)
	b.seen[sum]++
	if n := b.seen[sum]; n > 1 {
		return sarifHash(append(parts, "#"+strconv.Itoa(n)))
	}
	return sum
}

// sarifHash returns the hex SHA-256 of the length-prefixed parts.
func sarifHash(parts []string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// sarifLocations locates a finding at its scenario's line in its feature
// file, relative to the source root; at the file's first line when the
// line is not known (GitHub code scanning requires a start line).
func sarifLocations(feature string, line int) []sarifLocation {
	if feature == "" {
		return nil
	}
	a := sarifArtifact{URI: (&url.URL{Path: feature}).String(), URIBaseID: "%SRCROOT%"}
	if strings.HasPrefix(feature, "/") {
		a = sarifArtifact{URI: (&url.URL{Scheme: "file", Path: feature}).String()}
	}
	return []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: a, Region: sarifRegion{StartLine: max(line, 1)}}}}
}

// scenarioFailedText says that sc failed, with its error and the evidence
// that counts at level l.
func scenarioFailedText(sc Scenario, l Level) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Scenario %q failed", sc.Name)
	if sc.Error != "" {
		fmt.Fprintf(&b, ": %s", sc.Error)
	}
	writeEvidenceText(&b, evidenceAt(sc.Evidence, l))
	return b.String()
}

func skippedText(sc Scenario) string {
	text := fmt.Sprintf("Scenario %q was skipped: a skip is not a pass.", sc.Name)
	if sc.Error != "" {
		text += "\n" + sc.Error
	}
	return text
}

func notApplicableText(sc Scenario) string {
	return fmt.Sprintf("Scenario %q is not applicable to the target: %s", sc.Name, notApplicableReason(sc))
}

// caseFailedText says that c failed, how to reproduce it, and the evidence
// that counts at level l.
func caseFailedText(sc Scenario, c *Case, l Level) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Case %s of scenario %q failed (tool %s, operator %s, field %q).\nReproduce: %s",
		c.ID, sc.Name, c.Tool, c.Operator, c.Field, c.Reproducer)
	writeEvidenceText(&b, evidenceAt(c.Evidence, l))
	return b.String()
}

// writeEvidenceText appends each evidence as "[kind] message" ("[kind,
// level strict]" for evidence about one level's verdict), its diff
// indented below it.
func writeEvidenceText(b *strings.Builder, ev []Evidence) {
	for _, e := range ev {
		fmt.Fprintf(b, "\n[%s] %s", evidenceKind(e), e.Message)
		if e.Diff != "" {
			b.WriteString("\n  " + strings.ReplaceAll(e.Diff, "\n", "\n  "))
		}
	}
}
