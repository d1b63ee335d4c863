package runner

import (
	"testing"
	"testing/fstest"

	messages "github.com/cucumber/messages/go/v34"
)

func TestFeatureURI(t *testing.T) {
	tests := []struct{ in, want, why string }{
		{"features/a.feature", "features/a.feature", "a plain path is kept"},
		{"features/a.feature:12", "features/a.feature", "godog's :LINE suffix goes"},
		{"c:/x.feature", "c:/x.feature", "a colon without a number after it stays"},
	}
	for _, tt := range tests {
		if got := featureURI(tt.in); got != tt.want {
			t.Errorf("featureURI(%q) = %q, want %q: %s", tt.in, got, tt.want, tt.why)
		}
	}
}

// TestGherkinSourcesKnowNothingElse: a pickle the sources cannot place
// (no sources, an unreadable or unparsable file, a location no scenario
// has, another name) gets no line rather than a wrong one.
func TestGherkinSourcesKnowNothingElse(t *testing.T) {
	fsys := fstest.MapFS{
		"a.feature":   {Data: []byte("Feature: a\n  Scenario: s\n    Given x\n")},
		"bad.feature": {Data: []byte("Scenario without a feature\n")},
	}
	src := newGherkinSources(fsys)
	at := func(uri, name string, line int64) *messages.Pickle {
		return &messages.Pickle{Uri: uri, Name: name, Location: &messages.Location{Line: line},
			Steps: []*messages.PickleStep{{Id: "9", AstNodeIds: []string{"0"}}}}
	}
	tests := []struct {
		name string
		s    *gherkinSources
		p    *messages.Pickle
		want int
	}{
		{"the scenario", src, at("a.feature", "s", 2), 2},
		{"no sources", nil, at("a.feature", "s", 2), 0},
		{"no file", src, at("none.feature", "s", 2), 0},
		{"unparsable file", src, at("bad.feature", "s", 1), 0},
		{"another line", src, at("a.feature", "s", 3), 0},
		{"another name", src, at("a.feature", "t", 2), 0},
		{"no location", src, &messages.Pickle{Uri: "a.feature", Name: "s"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.s.of(tt.p)
			if got.line != tt.want || (tt.want == 0) != (got.gherkin == nil) {
				t.Errorf("of(%+v) = line %d, gherkin %v; want line %d", tt.p, got.line, got.gherkin, tt.want)
			}
			if tt.want != 0 && got.steps["9"] != 3 {
				t.Errorf("the step's line = %d, want 3", got.steps["9"])
			}
		})
	}
}
