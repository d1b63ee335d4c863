package attest_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/toolcert/toolcert/internal/attest"
)

// Example signs a statement with a new key and verifies it against a
// policy, as certify and verify do.
func Example() {
	dir, _ := os.MkdirTemp("", "keys")
	defer os.RemoveAll(dir)
	keyFile, pubFile, _ := attest.GenerateKeys(dir)
	key, _ := attest.LoadKey(keyFile)
	subject := attest.Identity{Name: "my-adapter", SHA256: attest.StringDigest("my-adapter's bytes"), DigestOf: attest.DigestOfExecutable}
	st := &attest.Statement{
		Type: attest.StatementType, PredicateType: attest.PredicateType,
		Subject: []attest.ResourceDescriptor{subject.Descriptor()},
		Predicate: attest.TestResult{Result: attest.Passed, PassedTests: []string{"first_test.feature: leaks nothing"},
			Toolcert: attest.Run{UpstreamVersions: []string{"v1"}, Timestamp: time.Now()}},
	}
	envelope, _ := attest.Sign(context.Background(), st, key)

	pub, _ := attest.LoadPublicKey(pubFile)
	opened, err := attest.Open(context.Background(), envelope, pub)
	if err != nil {
		fmt.Println(err)
		return
	}
	policy := attest.Policy{SubjectSHA256: subject.SHA256, UpstreamVersion: "v1", ForbidBaseline: true}
	fmt.Println(opened.Predicate.Result, policy.Check(opened))
	fmt.Println(attest.Policy{UpstreamVersion: "v2"}.Check(opened))
	// Output:
	// PASSED []
	// [upstream version: the run served v1, not v2]
}
