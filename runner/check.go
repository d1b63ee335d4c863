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
// corpus that does not lint clean under the run's profile, or that holds
// decisions left to its owner (unless AllowOpenDecisions).
func (c *Config) checkCorpus() error {
	now := time.Now
	if c.Now != nil {
		now = c.Now
	}
	if problems := LintCorpus(c.Fixtures, c.Profile, now()); len(problems) > 0 {
		return fmt.Errorf("%w: the corpus does not hold under the profile (%s; `toolcert fixtures lint` with the same --fixtures and --profile lists them):%s",
			ErrConfig, count(len(problems), "problem"), listProblems(problems))
	}
	if open := corpus.Undecided(corpus.New(c.Fixtures)); len(open) > 0 && !c.AllowOpenDecisions {
		return fmt.Errorf("%w: the corpus holds %s left to its owner (tool.json's \"decide\"): make each and delete its entry, "+
			"or run anyway with --allow-open-decisions (`toolcert fixtures lint` lists them):%s",
			ErrConfig, count(len(open), "decision"), listProblems(open))
	}
	return nil
}

// listProblems renders the first maxListed problems, one an indented line.
func listProblems(problems []corpus.Problem) string {
	var b strings.Builder
	for i, p := range problems {
		if i == maxListed {
			fmt.Fprintf(&b, "\n  ... and %d more", len(problems)-maxListed)
			break
		}
		fmt.Fprintf(&b, "\n  %s", p)
	}
	return b.String()
}

// count writes n and noun, plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
