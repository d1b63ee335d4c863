package reports_test

import (
	"fmt"
	"os"

	"github.com/toolcert/toolcert/reports"
)

func ExampleWrite() {
	r := &reports.Result{Tool: "toolcert", Scenarios: []reports.Scenario{
		{Feature: "features/r20.feature", Name: "one unexpected property", Status: reports.Passed},
	}}
	r.Tally()
	dir, _ := os.MkdirTemp("", "toolcert-report")
	defer os.RemoveAll(dir)
	paths, err := reports.Write(dir, r)
	fmt.Println(len(paths), err, r.Summary.Passed)
	// Output: 2 <nil> 1
}
