package variant_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/variant"
)

// TestKinds checks every built-in variant's kind against its class's row
// of the decision table: the class's kind, its exception's, or
// must-refuse for an ignorable change of a bound or fresh member; an
// answer a correct adapter accepts is never must-refuse, and an
// equivalent one is accepted at the strict level too.
func TestKinds(t *testing.T) {
	c := builtin(t)
	for _, v := range generate(t, variant.Options{}) {
		accepted := v.Expect.Outcome == protocol.OutcomeSuccess
		switch {
		case v.Kind == protocol.KindMustRefuse && accepted:
			t.Errorf("%s: must be refused, yet protocol v1 accepts it", v.ID)
		case v.Kind == protocol.KindEquivalent && !accepted:
			t.Errorf("%s: equivalent, yet protocol v1 refuses it", v.ID)
		}
		if v.Operator == "reject" {
			continue
		}
		tool, err := c.Tool(v.Tool)
		if err != nil {
			t.Fatal(err)
		}
		class, ok := protocol.ClassOf(v.Operator, tool.Format)
		if !ok {
			t.Errorf("%s: operator %s is no class of the decision table", v.ID, v.Operator)
			continue
		}
		allowed := []protocol.Kind{class.Kind, class.Otherwise}
		if slices.Contains(allowed, protocol.KindIgnorable) {
			allowed = append(allowed, protocol.KindMustRefuse)
		}
		if !slices.Contains(allowed, v.Kind) {
			t.Errorf("%s: kind %q, want one of %q (class %s)", v.ID, v.Kind, allowed, class.Name)
		}
	}
}

// TestKindsOfClasses pins the kinds the safe level rests on: another
// object, another time, an ambiguous answer, an error status and a body
// past the byte limit must be refused; an unknown member and a duplicate
// of equal values may be read past; escapes are the same answer.
func TestKindsOfClasses(t *testing.T) {
	want := map[string]protocol.Kind{
		"review_status/approved/wrong_bound_id/change_id#near":       protocol.KindMustRefuse,
		"run_status/failed/stale_timestamp/observed_at":              protocol.KindMustRefuse,
		"review_status/approved/duplicate_member/decision#first":     protocol.KindMustRefuse,
		"review_status/approved/duplicate_member/decision#same":      protocol.KindIgnorable,
		"review_status/approved/null_for_object":                     protocol.KindMustRefuse,
		"review_status/approved_vendor/null_for_object/links":        protocol.KindIgnorable,
		"review_status/approved/type_swap/change_id#number":          protocol.KindMustRefuse,
		"review_status/approved/type_swap/decision#number":           protocol.KindIgnorable,
		"review_status/approved/extra_property":                      protocol.KindIgnorable,
		"review_status/approved/upstream_status#404":                 protocol.KindMustRefuse,
		"review_status/approved/over_byte_limit#string":              protocol.KindMustRefuse,
		"review_status/approved/escaped_value/change_id":             protocol.KindEquivalent,
		"review_status/approved/content_type#charset":                protocol.KindEquivalent,
		"review_status/approved/content_type#html":                   protocol.KindIgnorable,
		"review_status/approved/member_order":                        protocol.KindEquivalent,
		"review_status/approved/whitespace":                          protocol.KindEquivalent,
		"review_status/approved/trailing_data#document":              protocol.KindIgnorable,
		"run_status/failed/missing_required/observed_at":             protocol.KindMustRefuse,
		"review_status/approved/invalid_utf8/change_id#ff":           protocol.KindMustRefuse,
		"review_status/approved/invalid_utf8/decision#ff":            protocol.KindIgnorable,
		"review_status/approved/too_deep#object":                     protocol.KindIgnorable,
		"review_status/approved_vendor/forged_request_id/request_id": protocol.KindIgnorable,
	}
	got := map[string]protocol.Kind{}
	for _, v := range generate(t, variant.Options{}) {
		if _, ok := want[v.ID]; ok {
			got[v.ID] = v.Kind
		}
	}
	for id, k := range want {
		if got[id] != k {
			t.Errorf("%s: kind %q, want %q", id, got[id], k)
		}
	}
}

// TestMarkPlacement: an ignorable variant's mark is on a value the agent
// is not shown, so that an adapter which reads past what it does not show
// passes it at the safe level; a key_value tool, whose every line is shown,
// and a truncated document are the exceptions. The mark of a must-refuse variant is where a wrong
// acceptance shows it whenever the example has such a place.
func TestMarkPlacement(t *testing.T) {
	c := builtin(t)
	for _, v := range generate(t, variant.Options{}) {
		if v.Mark == "" {
			continue
		}
		tool, err := c.Tool(v.Tool)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(v.Body), "{{canary:"+variant.MarkName+"}}") {
			t.Errorf("%s: Mark %q, but the body holds no mark", v.ID, v.Mark)
		}
		if tool.Format == corpus.FormatKeyValue || v.Kind != protocol.KindIgnorable || v.Operator == "truncate" {
			continue // truncate: no parser reads past a cut, so the mark goes first, wherever that is
		}
		for _, p := range tool.Versions[v.Version].Project {
			if p == v.Mark || strings.HasPrefix(v.Mark, p+"/") || strings.HasPrefix(p, v.Mark+"/") {
				t.Errorf("%s: ignorable, yet its mark %s is projected (%s)", v.ID, v.Mark, p)
			}
		}
	}
}
