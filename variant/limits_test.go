package variant_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/variant"
)

// TestLimitsFollowOptions runs the limit operators for small, non-default
// limits through the oracle: one past them is still refused, exactly at
// the depth limit is still parsed.
func TestLimitsFollowOptions(t *testing.T) {
	c := builtin(t)
	lim := corpus.Limits{MaxBytes: 2048, MaxDepth: 6, Freshness: 5 * time.Minute, Skew: 30 * time.Second}
	opts := variant.Options{MaxBytes: lim.MaxBytes, MaxDepth: lim.MaxDepth, Operators: []string{"too_deep", "at_depth_limit", "over_byte_limit"}}
	vs := generate(t, opts)
	if len(vs) == 0 {
		t.Fatal("no limit variants")
	}
	for _, v := range vs {
		tool, err := c.Tool(v.Tool)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Evaluate(tool, v.Version, corpus.Answer{Status: v.Status, ContentType: v.ContentType, Body: render(t, v.Body, v.ID)}, v.Arguments, testNow, lim)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(v.Expect.Gate+"/"+v.Expect.Reason, got.Gate+"/"+got.Reason); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", v.ID, diff)
		}
	}
}

// TestOverByteLimitWhateverCanariesRender renders the byte-limit variants
// with empty canaries: the body must still pass the limit.
func TestOverByteLimitWhateverCanariesRender(t *testing.T) {
	vars := testVars()
	vars.Canary = func(string, string) string { return "" }
	for _, v := range generate(t, variant.Options{Operators: []string{"over_byte_limit"}}) {
		body, err := corpus.Render(v.Body, v.ID, vars)
		if err != nil {
			t.Fatal(err)
		}
		if len(body) <= protocol.DefaultMaxBytes {
			t.Errorf("%s: %d bytes rendered, want more than %d", v.ID, len(body), protocol.DefaultMaxBytes)
		}
	}
}

// TestByteLimitNearTheBodies runs every operator with a byte limit as small
// as the examples themselves: a variant whose rendered size could land on
// either side of the limit is not generated, and every one that is agrees
// with the oracle at that limit.
func TestByteLimitNearTheBodies(t *testing.T) {
	lim := corpus.Limits{MaxBytes: 400, MaxDepth: 32, Freshness: 5 * time.Minute, Skew: 30 * time.Second}
	checkOracle(t, builtin(t), variant.Options{MaxBytes: lim.MaxBytes, MaxDepth: lim.MaxDepth}, lim)
}
