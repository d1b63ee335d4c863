package variant_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/variant"
)

var update = flag.Bool("update", false, "rewrite testdata/variants.golden")

func TestGenerateIsDeterministic(t *testing.T) {
	opts := variant.Options{Seed: 7}
	first, second := generate(t, opts), generate(t, opts)
	if !reflect.DeepEqual(first, second) { // cmp.Diff only to explain: it is slow on 64 KiB bodies
		t.Errorf("two Generate calls differ (-first +second):\n%s", cmp.Diff(first, second))
	}
}

func TestSeedMovesOnlySeededChoices(t *testing.T) {
	a, b := generate(t, variant.Options{Seed: 1}), generate(t, variant.Options{Seed: 2})
	unseeded := func(vs []variant.Variant) []variant.Variant {
		return slices.DeleteFunc(slices.Clone(vs), func(v variant.Variant) bool { return v.Operator == "truncate" })
	}
	if !reflect.DeepEqual(unseeded(a), unseeded(b)) {
		t.Errorf("variants other than truncate depend on the seed (-seed1 +seed2):\n%s", cmp.Diff(unseeded(a), unseeded(b)))
	}
	if reflect.DeepEqual(a, b) {
		t.Error("seeds 1 and 2 give the same truncations")
	}
}

// TestGolden pins every ID and the SHA-256 of its body (seed 0, default
// limits); run with -update after a deliberate change.
func TestGolden(t *testing.T) {
	var b strings.Builder
	for _, v := range generate(t, variant.Options{}) {
		fmt.Fprintf(&b, "%s %x %d %s/%s %s %q\n", v.ID, sha256.Sum256(v.Body), v.Status, v.Expect.Gate, v.Expect.Reason, v.Kind, v.Mark)
	}
	golden := filepath.Join("testdata", "variants.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("variants differ from %s (-want +got):\n%s", golden, diff)
	}
}

func TestAtLeastAThousandDistinctVariants(t *testing.T) {
	vs := generate(t, variant.Options{})
	ids, answers := map[string]bool{}, map[string]string{}
	for _, v := range vs {
		if ids[v.ID] {
			t.Errorf("ID %s appears twice", v.ID)
		}
		ids[v.ID] = true
		key := fmt.Sprintf("%s\x00%d\x00%s\x00%s", v.Tool, v.Status, v.ContentType, v.Body)
		if other, ok := answers[key]; ok {
			t.Errorf("%s and %s are the same answer", other, v.ID)
		}
		answers[key] = v.ID
	}
	if len(answers) < 1000 {
		t.Errorf("%d distinct variants, want at least 1000", len(answers))
	}
	bodies := map[string]bool{}
	for _, v := range vs {
		bodies[v.Tool+"\x00"+string(v.Body)] = true
	}
	t.Logf("%d variants, %d distinct bodies", len(vs), len(bodies))
	if len(bodies) < 1000 {
		t.Errorf("%d distinct bodies, want at least 1000", len(bodies))
	}
}

func TestRejectionsCarryACanary(t *testing.T) {
	for _, v := range generate(t, variant.Options{}) {
		if v.Expect.Outcome == protocol.OutcomeSuccess {
			continue
		}
		if v.Operator == "null_for_object" && v.Field == "" && string(v.Body) == "null" {
			continue // the body is the literal null: no room for a canary
		}
		if !bytes.Contains(v.Body, []byte("{{canary:")) {
			t.Errorf("%s: rejected body plants no canary: %q", v.ID, v.Body)
		}
	}
}

func TestVariantsAreComplete(t *testing.T) {
	for _, v := range generate(t, variant.Options{}) {
		switch {
		case !strings.HasPrefix(v.ID, v.Tool+"/"+v.Example) || !strings.Contains(v.ID, "/"+v.Operator):
			t.Errorf("%s: ID does not name tool %s, example %s, operator %s", v.ID, v.Tool, v.Example, v.Operator)
		case v.Note == "" || v.Version == "" || v.Status == 0 || len(v.Arguments) == 0:
			t.Errorf("%s: incomplete: %+v", v.ID, v)
		case v.Expect.Outcome == protocol.OutcomeSuccess && (len(v.Expect.Data) == 0 || v.Expect.Gate != "none"):
			t.Errorf("%s: success without data: %+v", v.ID, v.Expect)
		case v.Expect.Outcome == protocol.OutcomeFailure && (v.Expect.Code == "" || v.Expect.Gate == "" || v.Expect.Reason == ""):
			t.Errorf("%s: failure without code, gate or reason: %+v", v.ID, v.Expect)
		}
	}
}

func TestEveryOperatorMakesVariants(t *testing.T) {
	count := map[string]int{}
	gauge, err := variant.Generate(gaugeCorpus(), variant.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range append(generate(t, variant.Options{}), gauge...) {
		count[v.Operator]++
	}
	ops := variant.Operators()
	if !slices.IsSorted(ops) {
		t.Errorf("Operators() is not sorted: %v", ops)
	}
	for _, op := range ops {
		if count[op] == 0 {
			t.Errorf("operator %s makes no variant of the built-in and gauge corpora", op)
		}
		if variant.Describe(op) == "" {
			t.Errorf("operator %s has no description", op)
		}
	}
	if variant.Describe("no_such_operator") != "" {
		t.Error("Describe of an unknown operator is not empty")
	}
}

func TestTruncateNeverSplitsAPlaceholder(t *testing.T) {
	perExample := map[string]int{}
	for _, v := range generate(t, variant.Options{Seed: 3, Operators: []string{"truncate"}}) {
		perExample[v.Tool+"/"+v.Example]++
		open := bytes.LastIndex(v.Body, []byte("{{"))
		if open >= 0 && !bytes.Contains(v.Body[open:], []byte("}}")) {
			t.Errorf("%s: cut inside a placeholder: %q", v.ID, v.Body)
		}
	}
	if len(perExample) == 0 {
		t.Fatal("no truncate variants")
	}
	for ex, n := range perExample {
		if n < 3 {
			t.Errorf("%s: %d truncations, want at least 3", ex, n)
		}
	}
}

func TestOptionsSelect(t *testing.T) {
	vs := generate(t, variant.Options{Tools: []string{"host_uptime"}, Operators: []string{"crlf", "accepted"}})
	var ids []string
	for _, v := range vs {
		ids = append(ids, v.ID)
	}
	want := []string{
		"host_uptime/ok/accepted", "host_uptime/ok/crlf",
		"host_uptime/db/accepted", "host_uptime/db/crlf",
		"host_uptime/booted/accepted", "host_uptime/booted/crlf",
		"host_uptime/ok_v2/accepted", "host_uptime/ok_v2/crlf",
	}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("selected IDs (-want +got):\n%s", diff)
	}
}

func TestOptionsErrors(t *testing.T) {
	tests := []struct {
		name string
		opts variant.Options
		want error
	}{
		{"unknown operator", variant.Options{Operators: []string{"nope"}}, variant.ErrUnknownOperator},
		{"unknown tool", variant.Options{Tools: []string{"nope"}}, variant.ErrUnknownTool},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := variant.Generate(builtin(t), tt.opts); !errors.Is(err, tt.want) {
				t.Errorf("Generate error = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestFind(t *testing.T) {
	c := builtin(t)
	all := generate(t, variant.Options{Seed: 9})
	for _, i := range []int{0, len(all) / 3, len(all) / 2, len(all) - 1} {
		got, err := variant.Find(c, variant.Options{Seed: 9}, all[i].ID)
		if err != nil {
			t.Fatalf("Find(%s): %v", all[i].ID, err)
		}
		if diff := cmp.Diff(all[i], got); diff != "" {
			t.Errorf("Find(%s) mismatch (-want +got):\n%s", all[i].ID, diff)
		}
	}
	for _, id := range []string{"review_status/approved/nope", "nope/x/accepted"} {
		if _, err := variant.Find(c, variant.Options{}, id); err == nil {
			t.Errorf("Find(%s) found something", id)
		}
	}
	if _, err := variant.Find(c, variant.Options{}, "review_status/approved/nope"); !errors.Is(err, variant.ErrNotFound) {
		t.Errorf("Find of a missing ID: %v, want ErrNotFound", err)
	}
}

func TestSelectedVariants(t *testing.T) {
	tests := []struct {
		id, why string
		want    variant.Expect
	}{
		{"run_status/failed_vendor/extra_property/trigger", "trigger is closed",
			variant.Expect{Outcome: "failure", Code: "INVALID_RESPONSE", Gate: "schema", Reason: "schema_violation"}},
		{"review_status/approved/type_swap/decision#number", "decision is an enum of strings",
			variant.Expect{Outcome: "failure", Code: "INVALID_RESPONSE", Gate: "schema", Reason: "schema_violation"}},
		{"review_status/approved/escaped_duplicate/decision#last", "the escaped name repeats decision",
			variant.Expect{Outcome: "failure", Code: "INVALID_RESPONSE", Gate: "parse", Reason: "duplicate_name"}},
		{"run_status/failed/stale_timestamp/observed_at", "observed_at is checked for freshness",
			variant.Expect{Outcome: "failure", Code: "INVALID_RESPONSE", Gate: "semantic", Reason: "stale"}},
		{"deploy_status/healthy/upstream_5xx", "503 is retryable",
			variant.Expect{Outcome: "failure", Code: "UPSTREAM_UNAVAILABLE", Retryable: true, Gate: "transport", Reason: "status_5xx"}},
		{"host_uptime/ok/crlf", "carriage returns break the text format",
			variant.Expect{Outcome: "failure", Code: "INVALID_RESPONSE", Gate: "parse", Reason: "text_format"}},
		{"host_uptime/ok/wrong_bound_id/host#canary", "only the binding reads host",
			variant.Expect{Outcome: "failure", Code: "INVALID_RESPONSE", Gate: "semantic", Reason: "binding_mismatch"}},
	}
	c := builtin(t)
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			v, err := variant.Find(c, variant.Options{}, tt.id)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, v.Expect); diff != "" {
				t.Errorf("Expect, %s (-want +got):\n%s", tt.why, diff)
			}
		})
	}
	v, err := variant.Find(c, variant.Options{}, "review_status/approved/forged_request_id/request_id")
	if err != nil || v.Expect.Outcome != protocol.OutcomeSuccess || string(v.Expect.Data) == "" {
		t.Errorf("forged_request_id where the schema declares request_id: %+v, %v; want success with the example's data", v.Expect, err)
	}
}
