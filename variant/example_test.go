package variant_test

import (
	"fmt"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/variant"
)

func ExampleGenerate() {
	c := corpus.New(toolcert.Fixtures())
	vs, err := variant.Generate(c, variant.Options{Tools: []string{"review_status"}, Operators: []string{"type_swap"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range vs[:3] {
		fmt.Println(v.ID, v.Expect.Gate, v.Expect.Reason)
	}
	// Output:
	// review_status/approved/type_swap/change_id#number schema schema_violation
	// review_status/approved/type_swap/change_id#bool schema schema_violation
	// review_status/approved/type_swap/change_id#null schema schema_violation
}

func ExampleFind() {
	c := corpus.New(toolcert.Fixtures())
	v, err := variant.Find(c, variant.Options{}, "review_status/approved/duplicate_member/decision#first")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v.Expect.Code, v.Expect.Gate, v.Expect.Reason)
	fmt.Println(string(v.Body))
	// Output:
	// INVALID_RESPONSE parse duplicate_name
	// {"change_id": "CR-1042", "decision": "approved", "decision": "{{canary:dup}}", "reviewed_by": "alice@example.com"}
}

func ExampleOperators() {
	for _, op := range variant.Operators()[:2] {
		fmt.Printf("%s: %s\n", op, variant.Describe(op))
	}
	// Output:
	// above_maximum: every number with a maximum set one above it
	// accepted: the accepted example as it is: the adapter accepts it and projects exactly the contract's fields
}

func ExampleDescribe() {
	fmt.Println(variant.Describe("upstream_5xx"))
	// Output:
	// status 503 with the example's body (once per tool): retryable UPSTREAM_UNAVAILABLE; where tool.json declares error answers, also #503 (when one covers it) and every 5xx they name, each in the upstream's own shape with advice and a canary as its text
}
