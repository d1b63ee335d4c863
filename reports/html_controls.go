package reports

import "fmt"

// htmlControls is the page's controls section: the count of each state,
// at the certified level and (Others) at each other level, and one row per
// control, in the catalogue's order.
type htmlControls struct {
	Evidenced, Violated, NotExercised int
	Others                            []string
	Rows                              []htmlControl
}

// htmlControl is one control as the page shows it.
type htmlControl struct {
	ID, Title, Citation, URL string
	// Class and Label are its state's badge.
	Class, Label             string
	Passed, Failed, Expected int
	// Violations name the first failures; More counts those not named.
	Violations []string
	More       int
	// Levels says the control's state at each level when they differ.
	Levels string
}

// htmlControlViolations bounds the failures a control's row names.
const htmlControlViolations = 5

// htmlControlsOf lays the run's controls out for the page; certified is
// the level the run certifies.
func htmlControlsOf(controls []ControlResult, certified Level) htmlControls {
	var out htmlControls
	out.Evidenced, out.Violated, out.NotExercised = ControlCounts(controls)
	for _, l := range Levels() {
		var at []ControlResult
		for _, cr := range controls {
			if cl, ok := cr.At(l); ok && l != certified {
				at = append(at, ControlResult{Status: cl.Status})
			}
		}
		if len(at) > 0 {
			e, v, n := ControlCounts(at)
			out.Others = append(out.Others, fmt.Sprintf("at level %s: %d evidenced, %d violated, %d not exercised", l, e, v, n))
		}
	}
	for _, cr := range controls {
		row := htmlControl{ID: cr.ID, Title: cr.Title, Citation: cr.citation(), URL: cr.URL,
			Passed: cr.Passed, Failed: cr.Failed, Expected: cr.Expected, Levels: cr.levelsText()}
		row.Class, row.Label = htmlControlState(cr.Status)
		for _, v := range atMost(cr.Violations, htmlControlViolations) {
			row.Violations = append(row.Violations, controlRefText(v))
		}
		row.More = cr.Failed - len(row.Violations)
		out.Rows = append(out.Rows, row)
	}
	return out
}

// htmlControlState is a control state's CSS class and label.
func htmlControlState(status string) (class, label string) {
	switch status {
	case ControlEvidenced:
		return "passed", "evidenced"
	case ControlViolated:
		return "failed", "violated"
	}
	return "none", controlLabel(status)
}
