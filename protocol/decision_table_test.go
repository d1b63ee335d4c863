package protocol_test

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/protocol"
)

var update = flag.Bool("update", false, "rewrite the decision table in docs/protocol.md from protocol.DecisionTable")

const (
	protocolDoc = "../docs/protocol.md"
	tableStart  = "<!-- decision table: `go test ./protocol -update` writes it from protocol.DecisionTable -->\n"
	tableEnd    = "<!-- end of the decision table -->\n"
)

// TestDecisionTableDoc keeps the decision table of docs/protocol.md equal
// to protocol.DecisionTable (-update rewrites it).
func TestDecisionTableDoc(t *testing.T) {
	b, err := os.ReadFile(protocolDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, tableStart), strings.Index(doc, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no decision table between %q and %q", protocolDoc, tableStart, tableEnd)
	}
	want := markdownTable(protocol.DecisionTable())
	got := doc[i+len(tableStart) : j]
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(protocolDoc, []byte(doc[:i+len(tableStart)]+want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the decision table of %s is not protocol.DecisionTable (go test ./protocol -update) (-want +got):\n%s", protocolDoc, cmp.Diff(want, got))
}

// markdownTable writes the table, a row per class.
func markdownTable(classes []protocol.Class) string {
	var b strings.Builder
	b.WriteString("| class | tools | the upstream answers | gate: reason | also allowed | kind |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, c := range classes {
		format := c.Format
		if format == "" {
			format = "all"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", c.Name, format, strings.ReplaceAll(c.Input, "|", `\|`), verdicts(c.Verdicts), verdicts(c.Also), kind(c))
	}
	return b.String()
}

// kind writes the class's kind and its exception.
func kind(c protocol.Class) string {
	k := "`" + string(c.Kind) + "`"
	if c.Otherwise != "" {
		k += "; `" + string(c.Otherwise) + "` where " + c.OtherwiseWhen
	}
	return k
}

// verdicts writes verdicts as `gate: reason`, separated by " or ".
func verdicts(vs []protocol.Verdict) string {
	if len(vs) == 0 {
		return "—"
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = "`" + v.String() + "`"
	}
	return strings.Join(out, " or ")
}

// TestDecisionTableRecords: every verdict of the table is a gate and a
// reason the protocol has, and no class is named twice for one format.
func TestDecisionTableRecords(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range protocol.DecisionTable() {
		for _, f := range []string{protocol.FormatJSON, protocol.FormatKeyValue} {
			if c.Format != "" && c.Format != f {
				continue
			}
			if seen[c.Name+"/"+f] {
				t.Errorf("class %s is named twice for %s", c.Name, f)
			}
			seen[c.Name+"/"+f] = true
		}
		if len(c.Verdicts) == 0 {
			t.Errorf("class %s has no verdict", c.Name)
		}
		if !slices.Contains(protocol.Kinds(), c.Kind) || c.Otherwise != "" && (c.Otherwise == c.Kind || !slices.Contains(protocol.Kinds(), c.Otherwise) || c.OtherwiseWhen == "") {
			t.Errorf("class %s: kind %q, otherwise %q where %q: want a kind, and another with its condition or neither", c.Name, c.Kind, c.Otherwise, c.OtherwiseWhen)
		}
		onlyAccepted := !slices.ContainsFunc(c.Verdicts, func(v protocol.Verdict) bool { return v.Gate != protocol.GateNone })
		if onlyAccepted && slices.Contains([]protocol.Kind{c.Kind, c.Otherwise}, protocol.KindMustRefuse) {
			t.Errorf("class %s: every verdict accepts, yet some of its answers must be refused", c.Name)
		}
		for _, v := range append(append([]protocol.Verdict{}, c.Verdicts...), c.Also...) {
			if !protocol.Records(v.Gate, v.Reason) {
				t.Errorf("class %s: %s is no gate and reason of the protocol", c.Name, v)
			}
		}
		for _, v := range c.Also {
			code, retry := protocol.CodeFor(v.Gate, v.Reason)
			for _, w := range c.Verdicts {
				if c2, r2 := protocol.CodeFor(w.Gate, w.Reason); w.Gate != protocol.GateNone && (c2 != code || r2 != retry) {
					t.Errorf("class %s: %s gives the agent %s, %s gives %s: an alternative changes only the audit", c.Name, v, code, w, c2)
				}
			}
		}
	}
}

// TestKindOf: an ignorable change of a bound member is must-refuse; the
// class's exception gives its other kind; an equivalent stays one.
func TestKindOf(t *testing.T) {
	class := func(name, format string) protocol.Class {
		c, ok := protocol.ClassOf(name, format)
		if !ok {
			t.Fatalf("no class %s for %s", name, format)
		}
		return c
	}
	for _, tc := range []struct {
		class            string
		exception, bound bool
		want             protocol.Kind
	}{
		{"type_swap", false, false, protocol.KindIgnorable},
		{"type_swap", false, true, protocol.KindMustRefuse},
		{"null_for_object", true, false, protocol.KindMustRefuse},
		{"duplicate_member", false, false, protocol.KindMustRefuse},
		{"duplicate_member", true, false, protocol.KindIgnorable},
		{"duplicate_member", true, true, protocol.KindMustRefuse},
		{"escaped_value", false, true, protocol.KindEquivalent},
		{"content_type", true, false, protocol.KindEquivalent},
		{"wrong_bound_id", false, true, protocol.KindMustRefuse},
	} {
		if got := class(tc.class, protocol.FormatJSON).KindOf(tc.exception, tc.bound); got != tc.want {
			t.Errorf("%s (exception %v, bound %v): kind %s, want %s", tc.class, tc.exception, tc.bound, got, tc.want)
		}
	}
}
