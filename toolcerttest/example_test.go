package toolcerttest_test

import (
	"testing"

	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/targets"
	"github.com/toolcert/toolcert/toolcerttest"
)

// A connector owner's test: the built-in features and corpus against their
// adapter binary, one process per lane, each scenario a subtest.
func ExampleCertify() {
	_ = func(t *testing.T) {
		adapter, err := targets.NewProcess([]string{"./my-adapter", "--config", "dev.yaml"})
		if err != nil {
			t.Fatal(err)
		}
		res := toolcerttest.Certify(t, runner.Config{Target: adapter, Tags: "~@slow"})
		t.Logf("%d scenarios, %d generated cases", res.Summary.Scenarios, res.Summary.Cases)
	}
}
