package harness

import (
	"time"

	"github.com/toolcert/toolcert/canary"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/targets"
)

// Vars returns the corpus variables a lane renders fixtures with: the
// clock now, the profile's freshness window and skew, and canaries from
// set.
func Vars(now time.Time, p targets.Profile, set *canary.Set) corpus.Vars {
	return corpus.Vars{
		Now:       now,
		Freshness: time.Duration(p.Freshness),
		Skew:      time.Duration(p.FutureSkew),
		Canary:    func(name, where string) string { return set.Named(name, where) },
	}
}
