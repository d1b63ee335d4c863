package reports

import (
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"
)

// The JUnit XML that CI servers read, within what both the Jenkins xUnit
// plugin's junit-10.xsd and Maven Surefire's surefire-test-report XSD
// allow: every testsuite carries tests, failures, errors and skipped, the
// testsuites root only name, tests, failures, errors and time, and every
// failure and error its type. encoding/xml writes it: no Go library fits
// (docs/dependencies.md says why).
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string `xml:"name,attr"`
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Errors   int    `xml:"errors,attr"`
	Skipped  int    `xml:"skipped,attr"`
	Time     string `xml:"time,attr"`
	// Properties come before the testcases, as both schemas require.
	Properties *junitProperties `xml:"properties,omitempty"`
	Cases      []junitCase      `xml:"testcase"`
}

// junitProperties are a suite's name=value pairs: the level, each level's
// counts, the controls.
type junitProperties struct {
	Property []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// junitCase is one testcase; its children are in the order Surefire's
// schema requires (failure, skipped, error, system-out).
type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitSkip    `xml:"skipped,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

// junitMessage is a failure or an error: its type, message and detail.
type junitMessage struct {
	Type    string `xml:"type,attr"`
	Message string `xml:"message,attr"`
	Body    string `xml:",chardata"`
}

// junitSkip is a skip: Surefire's schema gives it no type.
type junitSkip struct {
	Message string `xml:"message,attr"`
	Body    string `xml:",chardata"`
}

// The types of JUnit failures and errors toolcert writes.
const (
	junitFailed         = "failed"
	junitUnexpectedPass = "unexpected_pass"
	junitInterrupted    = "interrupted"
)

// interruptedMessage is what the formats without a run-level field say of
// an interrupted run, on the failure or error they add for it.
const interruptedMessage = "the run was interrupted: the scenarios that did not run are skipped, and the run is not a pass"

// JUnit renders r as JUnit XML at the level it certifies: one testsuite
// per feature, one testcase per scenario, the evidence in the failure body
// (what counts at that level first). JUnit has no status for a
// not-applicable scenario, nor for a strict-only scenario or case: each is
// skipped, with a message that starts with "not applicable: " and says
// why, or with "strict only: level safe does not judge it". An interrupted
// run adds a last testsuite, "toolcert run", whose one testcase has an
// error of type "interrupted", so that CI does not read the run as clean.
// The level, each level's counts and the controls are properties of the
// first testsuite. Text passes through [inert] and [xmlSafe].
func JUnit(w io.Writer, r *Result) error {
	r = inertResult(r)
	out := junitSuites{Name: "toolcert", Time: secs(r.Duration)}
	for _, s := range junitSuitesOf(r.Scenarios, r.CertifiedLevel()) {
		out.add(s)
	}
	if len(out.Suites) > 0 {
		out.Suites[0].Properties = junitProperties{Property: append(junitLevels(r), junitControls(r.Controls)...)}.orNil()
	}
	if r.Summary.Interrupted {
		out.add(junitInterruptedSuite())
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("encode junit: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitSuitesOf groups the scenarios and their cases into one suite per
// feature, sorted by feature, each timed by its scenarios; l is the level
// the run certifies.
func junitSuitesOf(scs []Scenario, l Level) []junitSuite {
	byFeature := map[string]*junitSuite{}
	total := map[string]Duration{}
	var order []string
	for _, sc := range scs {
		s, ok := byFeature[sc.Feature]
		if !ok {
			s = &junitSuite{Name: xmlSafe(sc.Feature)}
			byFeature[sc.Feature] = s
			order = append(order, sc.Feature)
		}
		s.add(junitCaseOf(sc, l))
		for _, c := range sc.Cases {
			s.add(junitVariant(sc, c, l))
		}
		for _, id := range sc.SkippedCases {
			s.add(junitCase{Name: xmlSafe(sc.Name + " › " + id), Classname: xmlSafe(sc.Feature), Time: secs(0),
				Skipped: &junitSkip{Message: skippedCaseText}})
		}
		total[sc.Feature] += sc.Duration
	}
	sort.Strings(order)
	out := make([]junitSuite, 0, len(order))
	for _, name := range order {
		s := byFeature[name]
		s.Time = secs(total[name])
		out = append(out, *s)
	}
	return out
}

// skippedCaseText says why a generated case listed in a scenario's
// SkippedCases did not run.
const skippedCaseText = "not run: a step before the one that runs it failed"

// add appends s and counts its tests.
func (out *junitSuites) add(s junitSuite) {
	out.Tests += s.Tests
	out.Failures += s.Failures
	out.Errors += s.Errors
	out.Suites = append(out.Suites, s)
}

// orNil returns p, or nil when it holds no property (the schemas want no
// empty properties element).
func (p junitProperties) orNil() *junitProperties {
	if len(p.Property) == 0 {
		return nil
	}
	return &p
}

// junitLevels returns the level r certifies ("level" = "strict") and each
// level's counts ("level safe" = "4 scenarios: 4 passed, 0 failed; ...")
// as properties. JUnit has no place for the run as a whole, so they go on
// the first suite.
func junitLevels(r *Result) []junitProperty {
	out := []junitProperty{{Name: "level", Value: string(r.CertifiedLevel())}}
	for _, ls := range r.Summary.Levels {
		out = append(out, junitProperty{Name: "level " + string(ls.Level), Value: levelCounts(ls)})
	}
	return out
}

// junitControls returns the controls as properties, one per control
// ("control CWE-436" = "evidenced: 4 passed, 0 failed; <title>", with the
// states per level when they differ), on the first suite as the levels.
func junitControls(controls []ControlResult) []junitProperty {
	var out []junitProperty
	for _, cr := range controls {
		value := fmt.Sprintf("%s: %d passed, %d failed; %s", cr.Status, cr.Passed, cr.Failed, cr.Title)
		if lv := cr.levelsText(); lv != "" {
			value = fmt.Sprintf("%s: %d passed, %d failed (%s); %s", cr.Status, cr.Passed, cr.Failed, lv, cr.Title)
		}
		out = append(out, junitProperty{Name: xmlSafe(inert("control " + cr.ID)), Value: xmlSafe(inert(value))})
	}
	return out
}

// junitInterruptedSuite is the suite that says the run was interrupted.
func junitInterruptedSuite() junitSuite {
	s := junitSuite{Name: "toolcert run", Time: secs(0)}
	s.add(junitCase{Name: "every scenario ran", Classname: "toolcert run", Time: secs(0),
		Error: &junitMessage{Type: junitInterrupted, Message: interruptedMessage, Body: interruptedMessage}})
	return s
}

// add appends c and counts it by what it carries: a failure, an error, a
// skip (an expected failure of the baseline is reported as skipped, as
// pytest does with xfail, and so are a not-applicable scenario and a
// strict-only scenario or case), or none.
func (s *junitSuite) add(c junitCase) {
	s.Cases = append(s.Cases, c)
	s.Tests++
	switch {
	case c.Failure != nil:
		s.Failures++
	case c.Error != nil:
		s.Errors++
	case c.Skipped != nil:
		s.Skipped++
	}
}

// baselined turns jc into what the baseline mark says: an expected failure
// is skipped with the failure's message, an unexpected pass fails.
func baselined(jc junitCase, mark string) junitCase {
	switch mark {
	case ExpectedFailure:
		if jc.Failure != nil {
			jc.Skipped = &junitSkip{Message: xfailPrefix + jc.Failure.Message, Body: jc.Failure.Body}
			jc.Failure = nil
		}
	case UnexpectedPass:
		jc.Failure = &junitMessage{Type: junitUnexpectedPass, Message: xpassMessage}
	}
	return jc
}

// junitVariant renders one generated variant as its own testcase, so CI
// shows which variant failed at level l and how to run it alone. A
// strict-only case is skipped, saying what level strict found.
func junitVariant(sc Scenario, c Case, l Level) junitCase {
	jc := junitCase{Name: xmlSafe(sc.Name + " › " + c.ID), Classname: xmlSafe(sc.Feature), Time: secs(c.Duration)}
	switch c.Status {
	case Passed:
		return baselined(jc, c.Baseline)
	case StrictOnly:
		jc.Skipped = &junitSkip{Message: strictOnlyText(c.StatusAt(LevelStrict)),
			Body: xmlSafe(joinLines(reproduceLine(c), evidenceTrace(c.Evidence, l)))}
		return jc
	}
	msg := "variant failed"
	if ev := evidenceAt(c.Evidence, l); len(ev) > 0 {
		msg = ev[0].Message
	}
	body := joinLines(append([]string{reproduceLine(c), evidenceTrace(c.Evidence, l)}, detailLines(c.Saw, c.Requests, c.TargetOutput, 4096, 8, 20, 40, 4096)...)...) + "\n"
	jc.Failure = &junitMessage{Type: junitFailed, Message: xmlSafe(firstLine(msg)), Body: xmlSafe(body)}
	return baselined(jc, c.Baseline)
}

// junitCaseOf renders one scenario as a testcase at level l.
func junitCaseOf(sc Scenario, l Level) junitCase {
	c := junitCase{Name: xmlSafe(sc.Name), Classname: xmlSafe(sc.Feature), Time: secs(sc.Duration)}
	detail := describe(sc, l)
	switch sc.Status {
	case Passed:
	case Skipped:
		c.Skipped = &junitSkip{Message: skipIsNoPass, Body: detail}
	case NotApplicable:
		c.Skipped = &junitSkip{Message: xmlSafe(firstLine(notApplicableMessage(sc.Error))), Body: detail}
	case StrictOnly:
		c.Skipped = &junitSkip{Message: strictOnlyText(sc.StatusAt(LevelStrict)), Body: detail}
	default:
		c.Failure = &junitMessage{Type: junitFailed, Message: xmlSafe(firstLine(sc.Error)), Body: detail}
	}
	return baselined(c, sc.Baseline)
}

// describe writes sc's steps and its evidence, what counts at level l
// first.
func describe(sc Scenario, l Level) string {
	var b strings.Builder
	for _, st := range sc.Steps {
		fmt.Fprintf(&b, "%-7s %s\n", st.Status, st.Text)
		if st.Error != "" {
			fmt.Fprintf(&b, "        %s\n", st.Error)
		}
	}
	if ev := evidenceTrace(sc.Evidence, l); ev != "" {
		b.WriteString(ev + "\n")
	}
	return xmlSafe(b.String())
}

// xmlSafe drops the characters XML 1.0 cannot carry (an adapter's output
// may contain any byte, ANSI escapes included) so the report stays valid.
func xmlSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return r
		case r < 0x20, r == 0xFFFE, r == 0xFFFF, r >= 0xD800 && r <= 0xDFFF:
			return '\uFFFD'
		}
		return r
	}, s)
}

func secs(d Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }
