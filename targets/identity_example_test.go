package targets_test

import (
	"fmt"
	"path/filepath"

	"github.com/toolcert/toolcert/targets"
)

// ExampleSpec_Executable finds the file a process target runs, the file
// an attestation's subject digests.
func ExampleSpec_Executable() {
	spec := targets.Spec{Kind: targets.KindV1Process, Command: "sh -c 'exec my-adapter'"}
	path, err := spec.Executable()
	fmt.Println(filepath.Base(path), err)
	// Output: sh <nil>
}
