package reports

import (
	"fmt"
	"strings"
)

// strictOnlyMessage is what every format says of a scenario or generated
// case that is [StrictOnly]: the run certifies level safe, which does not
// judge it.
const strictOnlyMessage = "strict only: level safe does not judge it"

// strictOnlyText returns strictOnlyMessage with what level strict found
// when the model knows it: "strict only: level safe does not judge it
// (level strict: failed)".
func strictOnlyText(atStrict Status) string {
	switch atStrict {
	case Passed, Failed, Skipped, NotApplicable:
		return fmt.Sprintf("%s (level strict: %s)", strictOnlyMessage, statusLabel(atStrict))
	}
	return strictOnlyMessage
}

// statusLabel is a status as a reader reads it: "not applicable", "strict
// only", not "not_applicable".
func statusLabel(s Status) string {
	return strings.ReplaceAll(string(s), "_", " ")
}

// strictOnly returns the scenarios of scs that are strict only, in their
// order.
func strictOnly(scs []Scenario) []Scenario {
	var out []Scenario
	for _, sc := range scs {
		if sc.Status == StrictOnly {
			out = append(out, sc)
		}
	}
	return out
}

// caseIn is a generated case with the scenario that ran it.
type caseIn struct {
	Scenario *Scenario
	Case     Case
}

// strictOnlyCases returns the generated cases of scs that are strict
// only, in their order, each with its scenario.
func strictOnlyCases(scs []Scenario) []caseIn {
	var out []caseIn
	for i := range scs {
		for _, c := range scs[i].Cases {
			if c.Status == StrictOnly {
				out = append(out, caseIn{Scenario: &scs[i], Case: c})
			}
		}
	}
	return out
}
