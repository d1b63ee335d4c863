package variant_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/variant"
)

// verdict is the part of an outcome a variant declares.
type verdict struct {
	Accepted  bool
	Code      string
	Retryable bool
	Gate      string
	Reason    string
}

// oracleBugs are variants whose declared expectation follows
// docs/protocol.md while corpus.Evaluate (through gate) still disagrees,
// by the suffix of their ID. Each must still disagree: once the oracle is
// fixed, the test fails until its entry is removed.
var oracleBugs = map[string]string{}

// TestOracle checks every variant of the built-in corpus against
// corpus.Evaluate, the reference of what a correct adapter does.
func TestOracle(t *testing.T) {
	lim := corpus.Limits{MaxBytes: 65536, MaxDepth: 32, Freshness: 5 * time.Minute, Skew: 30 * time.Second}
	checkOracle(t, builtin(t), variant.Options{MaxBytes: lim.MaxBytes, MaxDepth: lim.MaxDepth}, lim)
}

// checkOracle evaluates every variant of c that opts select with the
// testVars rendering and compares the outcome with the declared one, and
// the data of accepted ones with their rendered Expect.Data.
func checkOracle(t *testing.T, c *corpus.Corpus, opts variant.Options, lim corpus.Limits) {
	t.Helper()
	vs, err := variant.Generate(c, opts)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*corpus.Tool{}
	for _, v := range vs {
		if tools[v.Tool] == nil {
			if tools[v.Tool], err = c.Tool(v.Tool); err != nil {
				t.Fatal(err)
			}
		}
		a := corpus.Answer{Status: v.Status, ContentType: v.ContentType, Body: render(t, v.Body, v.ID)}
		got, err := c.Evaluate(tools[v.Tool], v.Version, a, v.Arguments, testNow, lim)
		if err != nil {
			t.Fatalf("%s: Evaluate: %v", v.ID, err)
		}
		want := verdict{Accepted: v.Expect.Outcome == protocol.OutcomeSuccess, Code: string(v.Expect.Code), Retryable: v.Expect.Retryable, Gate: v.Expect.Gate, Reason: v.Expect.Reason}
		diff := cmp.Diff(want, verdict{got.Accepted, got.Code, got.Retryable, got.Gate, got.Reason})
		if bug, known := knownBug(v.ID); known {
			if diff == "" {
				t.Errorf("%s: the oracle now agrees (%s): remove it from oracleBugs", v.ID, bug)
			}
			continue
		}
		if diff != "" {
			t.Errorf("%s (%s): expectation mismatch (-want +got):\n%s\ndetail: %s", v.ID, v.Note, diff, got.Detail)
			continue
		}
		if got.Accepted {
			checkData(t, v, got.Data)
		}
	}
}

// knownBug returns the oracleBugs entry of id.
func knownBug(id string) (string, bool) {
	for suffix, bug := range oracleBugs {
		if strings.HasSuffix(id, "/"+suffix) {
			return bug, true
		}
	}
	return "", false
}

// checkData compares the agent data of an accepted variant with its
// rendered Expect.Data.
func checkData(t *testing.T, v variant.Variant, got map[string]any) {
	t.Helper()
	want, err := gate.ParseJSON(render(t, v.Expect.Data, v.ID+" expect"), gate.Limits{})
	if err != nil {
		t.Errorf("%s: Expect.Data: %v", v.ID, err)
		return
	}
	if diff := cmp.Diff(want, any(got)); diff != "" {
		t.Errorf("%s: data mismatch (-want +got):\n%s", v.ID, diff)
	}
}
