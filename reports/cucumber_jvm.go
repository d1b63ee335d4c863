package reports

import "io"

// The cucumber JSON format as cucumber-jvm writes it and its schema
// (cucumber-json-schema's cucumber-jvm.json) describes it, which
// consumers built for cucumber-jvm read (Jenkins' "Cucumber reports"
// plugin, masterthought's cucumber-reporting, cluecumber). It is the
// cucumber-js form reshaped, field for field: a step without arguments, a
// scenario's tag with its name only, a feature's tag with its type and
// location.
type (
	jvmFeature struct {
		URI         string          `json:"uri"`
		ID          string          `json:"id"`
		Keyword     string          `json:"keyword"`
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Line        int             `json:"line"`
		Tags        []jvmFeatureTag `json:"tags"`
		Elements    []jvmElement    `json:"elements"`
	}
	jvmFeatureTag struct {
		Name     string      `json:"name"`
		Type     string      `json:"type"` // always "Tag", as cucumber-jvm writes it
		Location jvmLocation `json:"location"`
	}
	jvmLocation struct {
		Line   int `json:"line"`
		Column int `json:"column"`
	}
	jvmElement struct {
		ID          string    `json:"id"`
		Keyword     string    `json:"keyword"`
		Type        string    `json:"type"`
		Name        string    `json:"name"`
		Description string    `json:"description"`
		Line        int       `json:"line"`
		Tags        []jvmTag  `json:"tags"`
		Steps       []jvmStep `json:"steps"`
	}
	jvmTag struct {
		Name string `json:"name"`
	}
	jvmStep struct {
		Keyword string         `json:"keyword"`
		Name    string         `json:"name"`
		Line    int            `json:"line"`
		Result  cucumberResult `json:"result"`
	}
)

// CucumberJVM renders r as cucumber JSON in the form cucumber-jvm writes
// it, for the consumers built for cucumber-jvm, whose schema the form of
// [CucumberJSON] cannot meet. It holds the same features, elements, tags,
// steps, statuses and messages as CucumberJSON (see there: not applicable
// and strict only are skipped with the reason in error_message, the level
// tags, baseline marks, generated cases, the interrupted run's feature),
// and differs only in shape: a step
// has no arguments, a scenario's tag only its name, and a feature's tag is
// {name, type "Tag", location {line, column}}, 0 where the model records
// no line or column.
func CucumberJVM(w io.Writer, r *Result) error {
	features := cucumberDocument(r)
	out := make([]jvmFeature, 0, len(features))
	for _, f := range features {
		out = append(out, jvmFeatureOf(f))
	}
	return encodeCucumber(w, out)
}

// jvmFeatureOf reshapes one feature of the cucumber-js form.
func jvmFeatureOf(f cucumberFeature) jvmFeature {
	out := jvmFeature{URI: f.URI, ID: f.ID, Keyword: f.Keyword, Name: f.Name, Description: f.Description,
		Line: f.Line, Tags: make([]jvmFeatureTag, 0, len(f.Tags)), Elements: make([]jvmElement, 0, len(f.Elements))}
	for _, t := range f.Tags {
		out.Tags = append(out.Tags, jvmFeatureTag{Name: t.Name, Type: "Tag", Location: jvmLocation{Line: t.Line, Column: t.Column}})
	}
	for _, e := range f.Elements {
		out.Elements = append(out.Elements, jvmElementOf(e))
	}
	return out
}

// jvmElementOf reshapes one element of the cucumber-js form.
func jvmElementOf(e cucumberElement) jvmElement {
	out := jvmElement{ID: e.ID, Keyword: e.Keyword, Type: e.Type, Name: e.Name, Description: e.Description,
		Line: e.Line, Tags: make([]jvmTag, 0, len(e.Tags)), Steps: make([]jvmStep, 0, len(e.Steps))}
	for _, t := range e.Tags {
		out.Tags = append(out.Tags, jvmTag{Name: t.Name})
	}
	for _, st := range e.Steps {
		out.Steps = append(out.Steps, jvmStep{Keyword: st.Keyword, Name: st.Name, Line: st.Line, Result: st.Result})
	}
	return out
}
