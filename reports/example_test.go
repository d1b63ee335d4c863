package reports_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

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

func ExampleText() {
	r := &reports.Result{Version: "1.0.0", Target: "my-adapter", Seed: 7, Scenarios: []reports.Scenario{
		{Feature: "features/leaks.feature", Name: "a message is never forwarded", Status: reports.Failed,
			Evidence: []reports.Evidence{{Kind: reports.EvidenceLeak, Message: "canary tc1 surfaced in body"}}},
	}}
	r.Tally()
	if err := reports.Text(os.Stdout, r, reports.TextOptions{Files: []string{"toolcert-report/results.json"}}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// toolcert 1.0.0 against my-adapter (seed 7), level strict
	//   failed  features/leaks.feature: a message is never forwarded
	//       canary tc1 surfaced in body
	// 1 scenarios: 0 passed, 1 failed, 0 skipped; 1 canary leaks; 0 upstream requests; 0.0s
	// wrote toolcert-report/results.json
}

func ExampleReadResult() {
	r, err := reports.ReadResult(strings.NewReader(`{"tool": "toolcert", "seed": 7, "summary": {"scenarios": 1, "passed": 1}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Seed, r.Summary.Passed)
	_, err = reports.ReadResult(strings.NewReader(`{"tool": "toolcert", "sede": 7}`))
	fmt.Println(err)
	// Output:
	// 7 1
	// read results: json: unknown field "sede"
}

func ExampleLoadResult() {
	dir, _ := os.MkdirTemp("", "toolcert-report")
	defer os.RemoveAll(dir)
	r := &reports.Result{Tool: "toolcert", Seed: 7, Shard: "1/2"}
	paths, _ := reports.Write(dir, r, "json")
	back, err := reports.LoadResult(paths[0])
	fmt.Println(back.Seed, back.Shard, err)
	// Output: 7 1/2 <nil>
}

func ExampleWriteBaseline() {
	r := &reports.Result{Scenarios: []reports.Scenario{
		{ID: "features/leaks.feature:3", Status: reports.Failed},
		{ID: "features/leaks.feature:9", Status: reports.Passed},
	}}
	dir, _ := os.MkdirTemp("", "toolcert-baseline")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "baseline.json")
	if err := reports.WriteBaseline(path, reports.BaselineOf(r)); err != nil {
		fmt.Println(err)
		return
	}
	b, err := reports.LoadBaseline(path)
	fmt.Println(b.Scenarios[0].ID, len(b.Cases), err)
	// Output: features/leaks.feature:3 0 <nil>
}

func ExampleCommand() {
	fmt.Println(reports.Command("toolcert", "run", "--seed", "42", "--target-cmd", "./adapter --port 0", "--fixtures", "it's here"))
	// Output: toolcert run --seed 42 --target-cmd './adapter --port 0' --fixtures "it's here"
}

func ExampleParseFormats() {
	fmt.Println(reports.ParseFormats("json, sarif"))
	fmt.Println(reports.ParseFormats("json,pdf"))
	// Output:
	// [json sarif] <nil>
	// [] unknown format "pdf" (known: ctrf, cucumber, cucumber-jvm, html, json, junit, markdown, sarif, or all)
}

// Progress is the line a run prints for each finished scenario.
func ExampleProgress() {
	reports.Progress(os.Stdout, reports.Scenario{
		Feature: "features/transport.feature", Name: "a 503 is retried", Status: reports.Failed,
		Duration: reports.Duration(1200 * time.Millisecond), Error: "the agent saw another outcome\n(-want +got) ...",
	})
	// Output:
	// FAIL features/transport.feature: a 503 is retried (1200ms)
	//      the agent saw another outcome (1 more line in results.json)
}

// Problem says what a connector owner must look at in one scenario.
func ExampleScenario_Problem() {
	sc := reports.Scenario{Status: reports.Skipped, Error: "the run was interrupted"}
	fmt.Println(sc.Problem())
	// Output: skipped, and a skip is not a pass: the run was interrupted
}

func ExamplePrintable() {
	tail := "\x1b]0;pwned\x07listening on :8080\n\u202eall scenarios passed\n"
	fmt.Print(reports.Printable(tail))
	// Output:
	// \x1b]0;pwned\x07listening on :8080
	// \u202eall scenarios passed
}

func ExampleResult_VerdictAt() {
	// A run that certifies level safe, of an adapter that reads past an
	// unknown member: a pass at level safe, a failure at level strict.
	r := &reports.Result{Level: reports.LevelSafe, Scenarios: []reports.Scenario{{
		Feature: "features/generated_variants.feature", Name: "every variant of review_status", Status: reports.Passed,
		Levels: map[reports.Level]reports.Status{reports.LevelSafe: reports.Passed, reports.LevelStrict: reports.Failed},
	}}}
	r.Tally()
	for _, l := range reports.Levels() {
		v, why, _ := r.VerdictAt(l)
		fmt.Println(l, v, why)
	}
	// Output:
	// safe passed [every scenario passed]
	// strict failed [failed scenarios no baseline explains: 1]
}

func ExampleEvidence_CountsAt() {
	e := reports.Evidence{Kind: reports.EvidenceMismatch, Message: "the agent saw success", Level: reports.LevelStrict}
	fmt.Println(e.CountsAt(reports.LevelSafe), e.CountsAt(reports.LevelStrict))
	// Output: false true
}
