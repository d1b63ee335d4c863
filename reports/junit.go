package reports

import (
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"
)

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Body    string `xml:",chardata"`
}

// JUnit renders r as JUnit XML: one testsuite per feature, one testcase per
// scenario, the evidence in the failure body. JUnit has no status for a
// not-applicable scenario: it is skipped, with a message that starts with
// "not applicable: " and says why.
func JUnit(w io.Writer, r *Result) error {
	out := junitSuites{Name: "toolcert", Time: secs(r.Duration)}
	byFeature := map[string]*junitSuite{}
	var order []string
	for _, sc := range r.Scenarios {
		s, ok := byFeature[sc.Feature]
		if !ok {
			s = &junitSuite{Name: sc.Feature}
			byFeature[sc.Feature] = s
			order = append(order, sc.Feature)
		}
		s.add(junitCaseOf(sc))
		for _, c := range sc.Cases {
			s.add(junitVariant(sc, c))
		}
	}
	sort.Strings(order)
	for _, name := range order {
		s := byFeature[name]
		var total Duration
		for _, sc := range r.Scenarios {
			if sc.Feature == name {
				total += sc.Duration
			}
		}
		s.Time = secs(total)
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Skipped += s.Skipped
		out.Suites = append(out.Suites, *s)
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

// add appends c and counts it by what it carries: a failure, a skip (an
// expected failure of the baseline is reported as skipped, as pytest does
// with xfail, and so is a not-applicable scenario), or neither.
func (s *junitSuite) add(c junitCase) {
	s.Cases = append(s.Cases, c)
	s.Tests++
	switch {
	case c.Failure != nil:
		s.Failures++
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
			jc.Skipped = &junitMessage{Message: xfailPrefix + jc.Failure.Message, Body: jc.Failure.Body}
			jc.Failure = nil
		}
	case UnexpectedPass:
		jc.Failure = &junitMessage{Message: xpassMessage}
	}
	return jc
}

// junitVariant renders one generated variant as its own testcase, so CI
// shows which variant failed and how to run it alone.
func junitVariant(sc Scenario, c Case) junitCase {
	jc := junitCase{Name: sc.Name + " › " + c.ID, Classname: sc.Feature, Time: secs(c.Duration)}
	if c.Status == Passed {
		return baselined(jc, c.Baseline)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "reproduce: %s\n", c.Reproducer)
	for _, e := range c.Evidence {
		fmt.Fprintf(&b, "evidence [%s] %s\n", e.Kind, e.Message)
		if e.Diff != "" {
			fmt.Fprintf(&b, "%s\n", e.Diff)
		}
	}
	msg := "variant failed"
	if len(c.Evidence) > 0 {
		msg = c.Evidence[0].Message
	}
	jc.Failure = &junitMessage{Message: xmlSafe(firstLine(msg)), Body: xmlSafe(b.String())}
	return baselined(jc, c.Baseline)
}

func junitCaseOf(sc Scenario) junitCase {
	c := junitCase{Name: sc.Name, Classname: sc.Feature, Time: secs(sc.Duration)}
	detail := describe(sc)
	switch sc.Status {
	case Passed:
	case Skipped:
		c.Skipped = &junitMessage{Message: skipIsNoPass, Body: detail}
	case NotApplicable:
		c.Skipped = &junitMessage{Message: xmlSafe(firstLine(notApplicableMessage(sc.Error))), Body: detail}
	default:
		c.Failure = &junitMessage{Message: xmlSafe(firstLine(sc.Error)), Body: detail}
	}
	return baselined(c, sc.Baseline)
}

func describe(sc Scenario) string {
	var b strings.Builder
	for _, st := range sc.Steps {
		fmt.Fprintf(&b, "%-7s %s\n", st.Status, st.Text)
		if st.Error != "" {
			fmt.Fprintf(&b, "        %s\n", st.Error)
		}
	}
	for _, e := range sc.Evidence {
		fmt.Fprintf(&b, "evidence [%s] %s\n", e.Kind, e.Message)
		if e.Diff != "" {
			fmt.Fprintf(&b, "%s\n", e.Diff)
		}
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
