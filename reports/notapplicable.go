package reports

import "strings"

// notApplicablePrefix starts the error of a not-applicable scenario, as the
// runner writes it ("not applicable: <reason>"), and every message a
// renderer writes for one.
const notApplicablePrefix = "not applicable: "

// notApplicableMessage returns text as a message that starts with
// notApplicablePrefix: text itself when it already does, "not applicable"
// alone when text is empty.
func notApplicableMessage(text string) string {
	switch {
	case text == "":
		return strings.TrimSuffix(notApplicablePrefix, ": ")
	case strings.HasPrefix(text, notApplicablePrefix):
		return text
	}
	return notApplicablePrefix + text
}

// notApplicableReason returns why sc does not apply: its error without the
// prefix, or a placeholder when the runner gave no reason.
func notApplicableReason(sc Scenario) string {
	if reason := strings.TrimPrefix(sc.Error, notApplicablePrefix); reason != "" {
		return reason
	}
	return "no reason given"
}

// notApplicable returns the scenarios of scs that are not applicable, in
// their order.
func notApplicable(scs []Scenario) []Scenario {
	var out []Scenario
	for _, sc := range scs {
		if sc.Status == NotApplicable {
			out = append(out, sc)
		}
	}
	return out
}
