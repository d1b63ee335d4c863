package attest

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	trv0 "github.com/in-toto/attestation/go/predicates/test_result/v0"
	intoto "github.com/in-toto/attestation/go/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/toolcert/toolcert/reports"
)

// TestStatementReadsAsInToto reads what toolcert writes with the in-toto
// project's own Go types (github.com/in-toto/attestation/go): the
// Statement v1 must decode and pass its Validate, and the predicate must
// decode as the test-result v0 predicate with the same result and lists.
// toolcert writes its own structs (statement.go); this test is what keeps
// them the format of the ecosystem rather than one of our own.
func TestStatementReadsAsInToto(t *testing.T) {
	res := resultOfScenarios(nil,
		reports.Scenario{ID: "a.feature: passes", Status: reports.Passed},
		reports.Scenario{ID: "b.feature: fails", Status: reports.Failed})
	p, err := Predicate(res, nil, Config{Executable: os.Args[0], Version: "test", UpstreamVersion: "v1"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	self, err := FileDigest(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	for name, st := range map[string]*Statement{
		"a run's statement": {Type: StatementType, PredicateType: PredicateType, Predicate: p,
			Subject: []ResourceDescriptor{{Name: "my-adapter", Digest: sha256Of(self)}}},
		"the test helper's statement": testStatement(Passed, self, "v1"),
	} {
		t.Run(name, func(t *testing.T) {
			raw, err := json.Marshal(st)
			if err != nil {
				t.Fatal(err)
			}
			var s intoto.Statement
			if err := protojson.Unmarshal(raw, &s); err != nil {
				t.Fatalf("in-toto Statement v1 does not read it: %v\n%s", err, raw)
			}
			if err := s.Validate(); err != nil {
				t.Fatalf("in-toto Statement v1 Validate: %v", err)
			}
			pred, err := s.GetPredicate().MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			var tr trv0.TestResult
			// DiscardUnknown: the toolcert extension field is not the
			// predicate's; in-toto's parsing rules let a consumer ignore it.
			if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(pred, &tr); err != nil {
				t.Fatalf("test-result v0 does not read the predicate: %v\n%s", err, pred)
			}
			if tr.GetResult() != string(st.Predicate.Result) || len(tr.GetPassedTests()) != len(st.Predicate.PassedTests) ||
				len(tr.GetFailedTests()) != len(st.Predicate.FailedTests) || len(tr.GetConfiguration()) != len(st.Predicate.Configuration) {
				t.Errorf("test-result read back as %v, want %+v", &tr, st.Predicate)
			}
			for _, d := range tr.GetConfiguration() {
				if err := d.Validate(); err != nil {
					t.Errorf("configuration descriptor %q: %v", d.GetName(), err)
				}
			}
		})
	}
}
