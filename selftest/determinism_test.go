package selftest_test

import (
	"bytes"
	"context"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/adapters/mutant"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
)

// times are the members of results.json that hold a time or a duration
// measured by the wall clock (summary.case_time's parts among them), and
// the lane that ran a scenario (whichever was free first); everything else
// must repeat for a seed.
var times = regexp.MustCompile(`"(started_at|duration|after_ms|lane|generate|baselines|calls|checks)": ("[^"]*"|[0-9.]+)`)

// madeUp are the values in what the agent saw that the adapter makes up
// each time or reads from the clock: the request id of its envelope, the
// Date header, and the timestamps of answers served relative to now.
var madeUp = regexp.MustCompile(`req\.[A-Za-z0-9]{20}|Date: [A-Z][a-z]{2}, [^"]* GMT|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`)

// TestSameSeedSameResults: two runs with the same seed against the same
// adapter write the same results.json, byte for byte, apart from times.
// The adapters are mutants so that the results hold failures, with their
// diffs, what the agent saw and the upstream requests. (A mutant that
// retries without bound is left out: how many requests fit in its deadline
// is a matter of time.)
func TestSameSeedSameResults(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the built-in features four times")
	}
	for _, name := range []string{"upstream-message-forwarded", "no-retry"} {
		t.Run(name, func(t *testing.T) { sameResults(t, name) })
	}
}

func sameResults(t *testing.T, name string) {
	render := func() string {
		tgt, err := mutant.InProcess(name)
		if err != nil {
			t.Fatal(err)
		}
		res, err := runner.Run(context.Background(), runner.Config{Target: tgt, Seed: 7, Concurrency: 4})
		if err != nil {
			t.Fatal(err)
		}
		if res.Summary.Failed == 0 {
			t.Fatal("the mutant failed nothing: the comparison would not cover failure evidence")
		}
		var b bytes.Buffer
		if err := reports.JSON(&b, res); err != nil {
			t.Fatal(err)
		}
		return madeUp.ReplaceAllString(times.ReplaceAllString(b.String(), `"$1": "…"`), "…")
	}
	first, second := render(), render()
	if diff := cmp.Diff(first, second); diff != "" {
		t.Errorf("two runs with seed 7 wrote different results.json (-first +second):\n%s", diff)
	}
}
