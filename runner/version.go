package runner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolcert/toolcert/corpus"
)

// selectVersion checks that the corpus knows cfg.UpstreamVersion and adds
// to the tag expression the exclusion of features tagged for every other
// version the corpus knows.
func (cfg *Config) selectVersion() error {
	if cfg.UpstreamVersion == "" {
		return nil
	}
	known, err := corpusVersions(corpus.New(cfg.Fixtures))
	if err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if !slices.Contains(known, cfg.UpstreamVersion) {
		return fmt.Errorf("%w: the corpus has no upstream version %q (it knows %s)", ErrConfig, cfg.UpstreamVersion, strings.Join(known, ", "))
	}
	var exclude []string
	for _, v := range known {
		if v != cfg.UpstreamVersion {
			exclude = append(exclude, "~@upstream-"+v)
		}
	}
	cfg.Tags = andTags(cfg.Tags, strings.Join(exclude, " && "))
	return nil
}

// andTags adds term to every alternative of a godog tag expression
// ("," is or, "&&" is and; there are no parentheses).
func andTags(expr, term string) string {
	if term == "" {
		return expr
	}
	if strings.TrimSpace(expr) == "" {
		return term
	}
	alts := strings.Split(expr, ",")
	for i, a := range alts {
		alts[i] = strings.TrimSpace(a) + " && " + term
	}
	return strings.Join(alts, ",")
}

// corpusVersions returns every upstream version any tool of c knows, sorted.
func corpusVersions(c *corpus.Corpus) ([]string, error) {
	tools, err := c.Tools()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, name := range tools {
		t, err := c.Tool(name)
		if err != nil {
			return nil, err
		}
		for _, v := range t.VersionNames() {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}
