package variant

import (
	"slices"
	"testing"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/protocol"
)

// TestExpectationsFollowTheDecisionTable: the expected gate and reason of
// every generated variant of the built-in corpus is one of its class's
// verdicts in docs/protocol.md's decision table, and its alternatives are
// exactly the class's other allowed verdicts.
func TestExpectationsFollowTheDecisionTable(t *testing.T) {
	vs, err := Generate(corpus.New(toolcert.Fixtures()), Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	c := corpus.New(toolcert.Fixtures())
	for _, v := range vs {
		tool, err := c.Tool(v.Tool)
		if err != nil {
			t.Fatal(err)
		}
		if v.Operator == RejectOperator {
			checkReject(t, c, tool, v)
			continue
		}
		class, ok := protocol.ClassOf(v.Operator, tool.Format)
		if !ok {
			t.Errorf("%s: operator %s has no row for format %s in the decision table", v.ID, v.Operator, tool.Format)
			continue
		}
		got := protocol.Verdict{Gate: protocol.Gate(v.Expect.Gate), Reason: v.Expect.Reason}
		if !slices.Contains(class.Verdicts, got) {
			t.Errorf("%s: expects %s, not a verdict of class %s %v", v.ID, got, class.Name, class.Verdicts)
		}
		for _, alt := range v.Expect.Alternatives {
			a := protocol.Verdict{Gate: protocol.Gate(alt.Gate), Reason: alt.Reason}
			if !slices.Contains(class.Also, a) || a == got {
				t.Errorf("%s: alternative %s is not one of the class's others %v", v.ID, a, class.Also)
			}
			code, retry := protocol.CodeFor(a.Gate, a.Reason)
			if alt.Outcome != protocol.OutcomeFailure || alt.Code != code || alt.Retryable != retry {
				t.Errorf("%s: alternative %+v, want the failure %s of %s", v.ID, alt, code, a)
			}
		}
		if want := len(class.Also) - btoi(slices.Contains(class.Also, got)); len(v.Expect.Alternatives) != want {
			t.Errorf("%s: %d alternatives, want %d", v.ID, len(v.Expect.Alternatives), want)
		}
	}
}

// TestEveryOperatorHasARow: each operator is a class of the decision
// table, so no generated expectation is left without its rule.
func TestEveryOperatorHasARow(t *testing.T) {
	for _, op := range operators() {
		for format, f := range map[string]bool{protocol.FormatJSON: op.json != nil, protocol.FormatKeyValue: op.kv != nil} {
			if _, ok := protocol.ClassOf(op.name, format); f && !ok {
				t.Errorf("operator %s (%s) has no row in the decision table", op.name, format)
			}
		}
	}
}

// checkReject checks a variant of a corpus reject: it expects the gate
// and reason the reject states, and its alternatives are what a class
// with that verdict allows besides it.
func checkReject(t *testing.T, c *corpus.Corpus, tool *corpus.Tool, v Variant) {
	t.Helper()
	cs, err := c.Cases(tool.Name)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(cs.Rejects, func(r corpus.Reject) bool { return r.ID == v.Example })
	if i < 0 {
		t.Errorf("%s: no reject %q in cases.json", v.ID, v.Example)
		return
	}
	r := cs.Rejects[i]
	if v.Expect.Gate != r.Gate || v.Expect.Reason != r.Reason || v.Status != r.StatusCode() {
		t.Errorf("%s: expects %s %s at status %d, the reject states %s %s at %d", v.ID, v.Expect.Gate, v.Expect.Reason, v.Status, r.Gate, r.Reason, r.StatusCode())
	}
	got := protocol.Verdict{Gate: protocol.Gate(r.Gate), Reason: r.Reason}
	for _, alt := range v.Expect.Alternatives {
		a := protocol.Verdict{Gate: protocol.Gate(alt.Gate), Reason: alt.Reason}
		allowed := slices.ContainsFunc(protocol.DecisionTable(), func(class protocol.Class) bool {
			return slices.Contains(class.Verdicts, got) && slices.Contains(class.Also, a)
		})
		if !allowed || a == got {
			t.Errorf("%s: alternative %s is allowed by no class with the verdict %s", v.ID, a, got)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
