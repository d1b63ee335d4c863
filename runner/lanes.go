package runner

import (
	"regexp"
	"strings"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/toolcert/toolcert/steps"
)

// lanes returns how many lanes the run starts: Concurrency, but never
// more than the scenarios it selects can use. A scenario holds one lane
// at a time, so k scenarios use at most k lanes; a scenario of generated
// variants also borrows every lane no other scenario waits for (its
// cases run on them), so it can use every lane, and a run that selects
// one starts them all. The rule in full:
//
//   - a target already running (UpstreamListen): one lane, as the pool
//     starts;
//   - one generated case (Case): one lane, as one case borrows none;
//   - a selection that cannot be read here (godog then says why): all;
//   - a selection with a step that runs generated variants: all;
//   - else the number of scenarios selected (by the paths, the tags and
//     the shard), at least one.
func (c *Config) lanes() int {
	switch {
	case c.UpstreamListen != "", c.Case != "":
		return 1
	case c.Concurrency <= 1:
		return c.Concurrency
	}
	pickles, err := c.selected()
	if err != nil {
		return c.Concurrency
	}
	variants := variantSteps()
	for _, p := range pickles {
		for _, st := range p.Steps {
			if variants != nil && variants.MatchString(st.Text) {
				return c.Concurrency
			}
		}
	}
	return min(c.Concurrency, max(len(pickles), 1))
}

// selected returns the scenarios the run selects, read as godog reads
// them (the features, their paths and the tag expression), less those of
// other shards.
func (c *Config) selected() ([]*messages.Pickle, error) {
	features, err := godog.TestSuite{Options: &godog.Options{
		FS: c.Features, Paths: c.FeaturePaths, Tags: c.Tags,
	}}.RetrieveFeatures()
	if err != nil {
		return nil, err
	}
	var out []*messages.Pickle
	for _, f := range features {
		for _, p := range f.Pickles {
			if c.Shard.Has(scenarioID(p)) {
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// variantSteps matches the text of a step that runs generated variants:
// a pattern of steps' vocabulary that names them; nil when none does.
func variantSteps() *regexp.Regexp {
	var alts []string
	for _, d := range steps.Vocabulary() {
		if strings.Contains(d.Pattern, "generated variant") {
			alts = append(alts, "(?:"+d.Pattern+")")
		}
	}
	if len(alts) == 0 {
		return nil
	}
	return regexp.MustCompile(strings.Join(alts, "|"))
}
