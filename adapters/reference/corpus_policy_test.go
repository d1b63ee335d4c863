package reference

import (
	"encoding/json"
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert"
)

// TestTestPolicyIsTheCorpusPolicy keeps the policy these tests use the
// same document as the corpus's (fixtures/policy.json), which the harness
// hands every target.
func TestTestPolicyIsTheCorpusPolicy(t *testing.T) {
	raw, err := fs.ReadFile(toolcert.Fixtures(), "policy.json")
	if err != nil {
		t.Fatal(err)
	}
	var want, got any
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(testPolicy), &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("testPolicy differs from fixtures/policy.json (-corpus +test):\n%s", diff)
	}
}
