package selftest_test

import (
	"testing"

	"github.com/toolcert/toolcert/adapters/mcpbridge"
	"github.com/toolcert/toolcert/adapters/mutant"
	"github.com/toolcert/toolcert/reports"
)

// Why a mutant's protection cannot be seen through an MCP server that
// bridges a protocol v1 adapter (docs/protocol.md, "The reference adapter
// over MCP"): what it breaks does not cross the bridge, or its scenarios
// need what MCP lacks.
const (
	noApprovals = "approvals need the human's endpoint, which MCP lacks: the approval scenarios are not applicable"
	noCutBody   = "a cut invocation body is protocol v1's: the scenario is not applicable"
	sdkRefuses  = "the go-sdk server refuses a tool name it does not list before the adapter sees it"
	notBridged  = "the bridge passes only the data, the code, the retryable flag and the request id: what the mutant leaks does not cross"
)

// notOverMCP names the mutants the self-test over MCP cannot catch, and
// why. Every other mutant must be caught over MCP where catches says.
var notOverMCP = map[string]string{
	"approval-any-session":       noApprovals,
	"approval-reusable":          noApprovals,
	"arguments-not-rebound":      noApprovals,
	"ask-executes":               noApprovals,
	"no-idempotency-key":         noApprovals,
	"partial-stream-acted-on":    noCutBody,
	"case-insensitive-tool":      sdkRefuses,
	"upstream-excerpt-in-header": notBridged,
	"upstream-headers-forwarded": notBridged,
	"validator-text-in-error":    notBridged,
}

// TestMutantsAreCaughtOverMCP serves every mutant as an MCP server (the
// pipeline with one stage replaced, behind mcpbridge, in memory): each is
// caught where catches says, at the same step, unless notOverMCP says why
// it cannot be; and for those, the test shows that indeed nothing of
// theirs fails over MCP, so the table stays true.
func TestMutantsAreCaughtOverMCP(t *testing.T) {
	for name := range notOverMCP {
		if _, ok := catches[name]; !ok {
			t.Errorf("notOverMCP names %s, which is no mutant", name)
		}
	}
	for _, name := range mutant.Names() {
		t.Run(name, func(t *testing.T) {
			tgt, err := mutant.InProcessMCP(name)
			if err != nil {
				t.Fatal(err)
			}
			why, excused := notOverMCP[name]
			if !excused {
				cs := applicableOverMCP(catches[name])
				if len(cs) == 0 {
					t.Fatalf("mutant %s has no catch that applies over MCP: name it in notOverMCP with the reason", name)
				}
				caught(t, name, tgt, cs)
				return
			}
			var features []string
			for _, c := range catches[name] {
				if c.feature != "" {
					features = append(features, c.feature)
				}
			}
			res := featuresRun(t, tgt, "", features...)
			if res.Summary.Failed != 0 {
				t.Errorf("mutant %s is caught over MCP after all (%s): remove it from notOverMCP", name, why)
			}
			if res.Summary.Passed+res.Summary.NotApplicable != res.Summary.Scenarios {
				t.Errorf("mutant %s over MCP: summary %+v", name, res.Summary)
			}
			t.Logf("not caught over MCP: %s", why)
		})
	}
}

// approvalsFeature holds only approval scenarios, none of which applies
// over MCP (noApprovals).
const approvalsFeature = "features/calls_approvals.feature"

// applicableOverMCP returns the catches of cs outside approvalsFeature.
func applicableOverMCP(cs []catch) []catch {
	var out []catch
	for _, c := range cs {
		if c.feature != approvalsFeature {
			out = append(out, c)
		}
	}
	return out
}

// TestReferencePassesOverMCP: the reference over MCP passes every built-in
// scenario that applies, and the scenarios that do not apply are the
// approval, raw-body and unknown-tool ones only.
func TestReferencePassesOverMCP(t *testing.T) {
	res := builtinRun(t, mcpbridge.InProcessReference(), "")
	for _, sc := range res.Scenarios {
		if sc.Status != reports.Passed && sc.Status != reports.NotApplicable {
			t.Errorf("%s: %q %s:\n%s", sc.Feature, sc.Name, sc.Status, sc.Error)
		}
	}
	if res.Summary.Leaks != 0 || res.Summary.NotApplicable > 16 || res.Summary.CasesFailed != 0 {
		t.Errorf("summary %+v: want no leak, no failed case and at most 16 not applicable", res.Summary)
	}
}
