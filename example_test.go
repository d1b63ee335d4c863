package toolcert_test

import (
	"fmt"
	"io/fs"

	"github.com/toolcert/toolcert"
)

// The built-in features are the .feature files under "features/".
func ExampleFeatures() {
	names, _ := fs.Glob(toolcert.Features(), "features/first_test.feature")
	fmt.Println(names)
	// Output: [features/first_test.feature]
}

// The built-in corpus holds one folder per tool, and the call-side policy.
func ExampleFixtures() {
	_, err := fs.Stat(toolcert.Fixtures(), "review_status/contract.json")
	fmt.Println(err == nil)
	// Output: true
}
