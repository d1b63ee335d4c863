package runner

import (
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/targets"
)

// LintCorpus lints the corpus fixtures under the limits of profile p at
// now, as `toolcert fixtures lint --profile` does: an accepted example must
// be accepted within p's byte, depth and freshness limits, so a run cannot
// fail a correct adapter on an example that the profile itself rejects.
// Its control catalogue, when it has one, may map only the built-in
// feature files, their tags and the generator's operators
// (corpus.LintControls).
func LintCorpus(fixtures fs.FS, p targets.Profile, now time.Time) []corpus.Problem {
	c := corpus.New(fixtures)
	return append(corpus.Lint(c, now, corpus.Limits{
		MaxBytes: p.MaxBytes, MaxDepth: p.MaxDepth,
		Freshness: time.Duration(p.Freshness), Skew: time.Duration(p.FutureSkew),
	}), corpus.LintControls(c, vocabulary())...)
}

// maxListed is how many corpus problems a configuration error lists.
const maxListed = 5

// checkCorpus refuses, as a configuration error naming each problem, a
// corpus that does not lint clean under the run's profile.
func (c *Config) checkCorpus() error {
	now := time.Now
	if c.Now != nil {
		now = c.Now
	}
	problems := LintCorpus(c.Fixtures, c.Profile, now())
	if len(problems) == 0 {
		return nil
	}
	var b strings.Builder
	for i, p := range problems {
		if i == maxListed {
			fmt.Fprintf(&b, "\n  ... and %d more", len(problems)-maxListed)
			break
		}
		fmt.Fprintf(&b, "\n  %s", p)
	}
	noun := "problems"
	if len(problems) == 1 {
		noun = "problem"
	}
	return fmt.Errorf("%w: the corpus does not hold under the profile (%d %s; `toolcert fixtures lint` with the same --fixtures and --profile lists them):%s",
		ErrConfig, len(problems), noun, b.String())
}
