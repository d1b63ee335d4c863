package reports

// htmlControls is the page's controls section: the count of each state
// and one row per control, in the catalogue's order.
type htmlControls struct {
	Evidenced, Violated, NotExercised int
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
}

// htmlControlViolations bounds the failures a control's row names.
const htmlControlViolations = 5

// htmlControlsOf lays the run's controls out for the page.
func htmlControlsOf(controls []ControlResult) htmlControls {
	var out htmlControls
	out.Evidenced, out.Violated, out.NotExercised = ControlCounts(controls)
	for _, cr := range controls {
		row := htmlControl{ID: cr.ID, Title: cr.Title, Citation: cr.citation(), URL: cr.URL,
			Passed: cr.Passed, Failed: cr.Failed, Expected: cr.Expected}
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
