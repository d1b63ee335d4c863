package selftest_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/adapters/mutant"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/steps"
	"github.com/toolcert/toolcert/targets"
)

// catch is where the self-test expects a mutant to be caught: a scenario
// of feature fails at a step whose text starts with step. With caseID set
// instead of feature, that generated case runs alone (as `toolcert run
// --case` does) and must fail at step.
type catch struct {
	feature string
	caseID  string
	step    string
}

// f is the path of a built-in feature file.
func f(name string) string { return "features/" + name + ".feature" }

// catches names, for each mutant, where it must be caught. Together they
// must make every assertion step of the vocabulary fail somewhere
// (TestMutantsAreCaught proves it), so that no assertion of the harness is
// one that passes whatever the adapter does.
var catches = map[string][]catch{
	// the result side
	"additional-properties-ignored": {{feature: f("closed_objects"), step: "the agent sees the failure INVALID_RESPONSE"}, {feature: f("first_test"), step: "the agent sees the failure INVALID_RESPONSE"}},
	"duplicate-last-wins":           {{feature: f("duplicate_members"), step: "the agent sees the failure INVALID_RESPONSE"}, {caseID: "review_status/approved/duplicate_member/change_id#first", step: "the generated variant"}},
	"case-insensitive-members":      {{feature: f("duplicate_members"), step: "the agent sees the failure INVALID_RESPONSE"}, {caseID: "review_status/approved/case_variant_duplicate/reviewed_by", step: "the generated variant"}},
	"crash-on-null":                 {{feature: f("wrong_shapes"), step: "the agent calls"}, {caseID: "review_status/approved/null_for_object", step: "the generated variant"}},
	"freshness-unchecked":           {{feature: f("semantic_binding"), step: "the agent sees the failure INVALID_RESPONSE"}, {feature: f("generated_variants"), step: "every generated variant"}},
	"no-byte-limit":                 {{feature: f("parse_limits"), step: `the audit records gate "transport" and reason "byte_limit"`}},
	"reads-whole-body":              {{feature: f("parse_limits"), step: "the adapter stopped reading before the end of the body"}},
	"upstream-message-forwarded":    {{feature: f("projection"), step: "the agent sees success with data"}},
	"upstream-request-id-echoed":    {{feature: f("envelope"), step: "the agent's request_id is its own"}, {feature: f("projection"), step: "no canary reaches the agent"}},
	"upstream-excerpt-in-header":    {{feature: f("deployment_example"), step: "the agent's output does not contain"}, {feature: f("closed_objects"), step: "no canary reaches the agent"}},
	"upstream-headers-forwarded":    {{feature: f("projection"), step: "no canary reaches the agent"}, {feature: f("transport"), step: "no canary reaches the agent"}},
	"validator-text-in-error":       {{feature: f("closed_objects"), step: "the agent sees the failure INVALID_RESPONSE"}, {feature: f("arguments"), step: "the agent sees the failure DENIED"}},
	// fetching: retries, budget, time
	"no-retry":              {{feature: f("transport"), step: "the upstream received exactly the adapter's attempt budget"}, {feature: f("transport"), step: "the agent's text contains"}},
	"retry-off-by-one":      {{feature: f("transport"), step: "the upstream received at most the adapter's attempt budget"}, {feature: f("transport"), step: "the upstream received exactly the adapter's attempt budget"}, {feature: f("mcp_server"), step: "every tool fails on 503 with Retry-After"}},
	"retries-client-errors": {{feature: f("transport"), step: "the upstream received 1 request"}},
	"unbounded-retries":     {{feature: f("transport"), step: "the agent sees the failure UPSTREAM_UNAVAILABLE"}},
	// the failure envelope's code and retryable flag
	"retryable-inverted":   {{feature: f("transport"), step: "the agent sees the failure UPSTREAM_UNAVAILABLE, retryable"}, {feature: f("closed_objects"), step: "the agent sees the failure INVALID_RESPONSE, not retryable"}},
	"codes-collapsed":      {{feature: f("transport"), step: "the agent sees the failure NOT_FOUND"}, {feature: f("calls_authorization"), step: "the agent sees the failure DENIED"}, {feature: f("transport"), step: "the call fails, and its code is NOT_FOUND"}},
	"deadline-per-attempt": {{feature: f("transport"), step: "the agent got its answer within the adapter's time budget"}},
	// the audit log
	"audit-counts-one-attempt": {{feature: f("transport"), step: "the audit records 2 attempts"}, {feature: f("transport"), step: "the audit records as many attempts as the upstream received"}},
	"audit-one-reason":         {{feature: f("parse_limits"), step: `the audit records gate "transport" and reason "byte_limit" for that request`}, {feature: f("semantic_binding"), step: `the audit records gate "semantic"`}},
	"audit-without-body-hash":  {{feature: f("first_test"), step: `the audit records gate "schema" for that request, with the sha256 of the served body`}, {feature: f("projection"), step: `the audit records gate "none"`}},
	// the call side
	"approval-any-session":    {{feature: f("calls_approvals"), step: "the agent sees the failure DENIED"}},
	"approval-reusable":       {{feature: f("calls_approvals"), step: "the agent sees the failure DENIED"}},
	"arguments-not-rebound":   {{feature: f("calls_approvals"), step: "the agent sees the failure DENIED"}},
	"ask-executes":            {{feature: f("calls_approvals"), step: "the agent sees the call pending approval"}},
	"case-insensitive-tool":   {{feature: f("calls_authorization"), step: "the agent sees the failure DENIED"}},
	"grant-not-checked":       {{feature: f("calls_authorization"), step: "the agent sees the failure DENIED"}, {feature: f("calls_approvals"), step: "the agent sees the failure DENIED"}},
	"model-account-trusted":   {{feature: f("calls_refund"), step: "the agent sees the failure DENIED"}},
	"no-allowlist":            {{feature: f("calls_authorization"), step: `the audit records the decision "deny" with reason "tool_not_allowlisted"`}},
	"no-idempotency-key":      {{feature: f("calls_approvals"), step: "the upstream received 1 request to POST /emails with the approval as idempotency key"}},
	"order-refetched":         {{feature: f("calls_refund"), step: "the upstream received 1 request to GET /orders/"}},
	"partial-stream-acted-on": {{feature: f("calls_refund"), step: "the upstream received no request"}},
	// arguments on their way upstream
	"arguments-unchecked": {{feature: f("mcp_server"), step: "every tool called with arguments its input schema refuses sends nothing upstream"}, {feature: f("arguments"), step: "the agent sees the failure DENIED"}},
	"path-injection":      {{feature: f("mcp_server"), step: "every tool's string arguments, made hostile, are refused or stay on the tool's route"}},
	// the MCP server layer (caught over MCP only: over protocol v1 they are the reference)
	"mcp-output-schema-unmet": {{feature: f("mcp_server"), step: "every tool's answer to an accepted upstream answer meets the output schema the server declares"}},
	"mcp-stdout-banner":       {{feature: f("mcp_server"), step: "the server wrote nothing but JSON-RPC messages on stdout"}},
	"mcp-tools-change":        {{feature: f("mcp_server"), step: "the tools are those the server listed in the run's first session"}},
}

// TestMutantsAreCaught proves the harness can fail. Every mutant, the
// reference with exactly one protection removed, fails where catches says,
// at the step it says, served over protocol v1 and over MCP (but for those
// notOverV1 and notOverMCP name, with the reason); and every assertion step
// of the vocabulary is the failing step of some mutant's scenario.
func TestMutantsAreCaught(t *testing.T) {
	names := mutant.Names()
	if diff := cmp.Diff(sortedKeys(catches), names); diff != "" {
		t.Fatalf("every mutant needs an entry in catches (-catches +mutants):\n%s", diff)
	}
	var failedAt []string
	ran := 0
	for _, name := range names {
		t.Run("v1/"+name, func(t *testing.T) {
			ran++
			failedAt = append(failedAt, caughtOverV1(t, name)...)
		})
	}
	for _, name := range names {
		t.Run("mcp/"+name, func(t *testing.T) {
			ran++
			failedAt = append(failedAt, caughtOverMCP(t, name)...)
		})
	}
	if ran < 2*len(names) {
		t.Logf("%d of %d mutants ran: the proof that every assertion can fail needs them all", ran, len(names))
		return
	}
	for _, d := range steps.Vocabulary() {
		if d.Kind != steps.Assert {
			continue
		}
		re := regexp.MustCompile(d.Pattern)
		if !slices.ContainsFunc(failedAt, re.MatchString) {
			t.Errorf("no mutant fails a scenario at the assertion %s: nothing shows that it can fail", d.Pattern)
		}
	}
}

// caught runs the features and cases of cs against tgt, the named
// mutant, checks that each catch failed at its step, and returns the text
// of every step that failed.
func caught(t *testing.T, name string, tgt targets.Target, cs []catch) []string {
	t.Helper()
	failed := map[string][]string{} // feature or case ID -> failing step texts
	var features []string
	for _, c := range cs {
		if c.caseID != "" {
			for _, texts := range failingSteps(caseRun(t, tgt, c.caseID)) {
				failed[c.caseID] = append(failed[c.caseID], texts...)
			}
		} else if !slices.Contains(features, c.feature) {
			features = append(features, c.feature)
		}
	}
	if len(features) > 0 {
		for feature, texts := range failingSteps(featuresRun(t, tgt, "", features...)) {
			failed[feature] = texts
		}
	}
	var all []string
	for _, c := range cs {
		where := c.feature
		if c.caseID != "" {
			where = c.caseID
		}
		if !slices.ContainsFunc(failed[where], func(s string) bool { return strings.HasPrefix(s, c.step) }) {
			t.Errorf("mutant %s (%s): no scenario of %s failed at a step %q; failing steps: %q",
				name, mutant.Describe(name), where, c.step, failed[where])
		}
	}
	for where, texts := range failed {
		t.Logf("caught by %s at %q", where, texts)
		all = append(all, texts...)
	}
	return all
}

// failingSteps returns, by feature, the text of each failing step of res.
func failingSteps(res *reports.Result) map[string][]string {
	out := map[string][]string{}
	for _, sc := range res.Scenarios {
		for _, st := range sc.Steps {
			if st.Status == reports.Failed {
				out[sc.Feature] = append(out[sc.Feature], st.Text)
			}
		}
	}
	return out
}

// caseRun runs one generated case alone against tgt.
func caseRun(tb testing.TB, tgt targets.Target, id string) *reports.Result {
	tb.Helper()
	res, err := runner.Run(context.Background(), runner.Config{Target: tgt, Case: id})
	if err != nil {
		tb.Fatalf("case %s against %s: %v", id, tgt, err)
	}
	return res
}

// coreMutants are the mutants of the result side (issue 2's list): the
// generated variants, which serve hostile answers, must catch each alone.
// The call-side mutants need calls, which variants do not make.
var coreMutants = []string{
	"additional-properties-ignored", "duplicate-last-wins", "freshness-unchecked", "no-byte-limit",
	"unbounded-retries", "upstream-message-forwarded", "upstream-request-id-echoed", "validator-text-in-error",
}

// TestMutantsCaughtByVariantsAlone: the generated variants, with no
// hand-written scenario, catch every core mutant.
func TestMutantsCaughtByVariantsAlone(t *testing.T) {
	for _, name := range coreMutants {
		t.Run(name, func(t *testing.T) {
			tgt, err := mutant.InProcess(name)
			if err != nil {
				t.Fatal(err)
			}
			res := featuresRun(t, tgt, "", "features/generated_variants.feature")
			if res.Summary.CasesFailed == 0 {
				t.Fatalf("mutant %s (%s): all %d generated cases passed", name, mutant.Describe(name), res.Summary.Cases)
			}
			ops := map[string]int{}
			for _, sc := range res.Scenarios {
				for _, c := range sc.Cases {
					if c.Status != reports.Passed {
						ops[c.Operator]++
					}
				}
			}
			t.Logf("mutant %s: %d of %d cases failed, by operator %v", name, res.Summary.CasesFailed, res.Summary.Cases, ops)
		})
	}
}
