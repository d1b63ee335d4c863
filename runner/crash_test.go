package runner

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/adapters/mcpbridge"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
)

// crasherEnv, set in the environment of this test binary, makes it serve
// the reference adapter instead of running tests; a call of the tool
// "crash_now" ends the process with exit status 3.
const crasherEnv = "TOOLCERT_TEST_CRASHER"

// mcpCrasherEnv makes this test binary serve the reference adapter as an
// MCP server on stdio; a call of review_status for CR-666 ends the process
// with exit status 3.
const mcpCrasherEnv = "TOOLCERT_TEST_MCP_CRASHER"

func TestMain(m *testing.M) {
	switch {
	case os.Getenv(crasherEnv) == "1":
		os.Exit(serveCrasher())
	case os.Getenv(mcpCrasherEnv) == "1":
		os.Exit(serveMCPCrasher())
	}
	os.Exit(m.Run())
}

// serveMCPCrasher serves the reference over MCP on stdio until a call of
// review_status for CR-666, then exits with status 3.
func serveMCPCrasher() int {
	cfg, err := reference.ConfigFromEnv(os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	a, err := reference.New(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	crasher := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), "CR-666") {
			fmt.Fprintln(os.Stderr, "mcp crasher: CR-666 called, exiting")
			os.Exit(3)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		a.ServeHTTP(w, r)
	})
	tools, err := mcpbridge.ReferenceTools()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	srv, err := mcpbridge.New(crasher, tools)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if err := mcpbridge.ServeStdio(context.Background(), srv); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// serveCrasher serves the reference adapter from the TOOLCERT_*
// environment until a call of crash_now, then exits with status 3.
func serveCrasher() int {
	cfg, err := reference.ConfigFromEnv(os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	a, err := reference.New(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ln, err := net.Listen("tcp", a.Config().Listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	crasher := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/crash_now/") {
			fmt.Fprintln(os.Stderr, "crasher: crash_now called, exiting")
			os.Exit(3)
		}
		a.ServeHTTP(w, r)
	})
	if err := http.Serve(ln, crasher); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestDeadTargetIsRestarted: an adapter that dies in one scenario fails
// that scenario with its exit status as evidence; the lane starts it again
// for the next scenario, which passes, and the result counts the restart.
func TestDeadTargetIsRestarted(t *testing.T) {
	crasher, err := targets.NewProcess([]string{os.Args[0]}, targets.WithExtraEnv(map[string]string{crasherEnv: "1"}))
	if err != nil {
		t.Fatal(err)
	}
	feature := `Feature: crash
  Scenario: a call that kills the adapter
    When the agent calls "crash_now" with {}
    Then the agent sees the failure DENIED, not retryable

  Scenario: the next scenario gets a fresh adapter
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved.json"
    And the upstream adds the property "admin_override" carrying a canary
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
`
	res, err := Run(context.Background(), Config{
		Features: fstest.MapFS{"crash.feature": {Data: []byte(feature)}},
		Fixtures: toolcert.Fixtures(), Target: crasher, Profile: targets.DefaultProfile(), Concurrency: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]reports.Status{}
	for _, sc := range res.Scenarios {
		got[sc.Name] = sc.Status
		if sc.Name == "a call that kills the adapter" && !strings.Contains(sc.Error, "exit status 3") {
			t.Errorf("the crash's evidence lacks the exit status: %q", sc.Error)
		}
	}
	want := map[string]reports.Status{"a call that kills the adapter": reports.Failed, "the next scenario gets a fresh adapter": reports.Passed}
	if len(got) != 2 || got["a call that kills the adapter"] != want["a call that kills the adapter"] ||
		got["the next scenario gets a fresh adapter"] != want["the next scenario gets a fresh adapter"] {
		t.Errorf("statuses %v, want %v", got, want)
	}
	if res.Summary.TargetRestarts != 1 {
		t.Errorf("TargetRestarts = %d, want 1", res.Summary.TargetRestarts)
	}
}

// TestDeadMCPServerIsRestarted: an MCP server that dies during a call
// fails that scenario with its exit status and stderr as evidence; the lane
// starts it again for the next scenario, which passes.
func TestDeadMCPServerIsRestarted(t *testing.T) {
	server, err := targets.NewMCPStdio([]string{os.Args[0]}, targets.WithExtraEnv(map[string]string{mcpCrasherEnv: "1"}))
	if err != nil {
		t.Fatal(err)
	}
	feature := `Feature: crash
  Scenario: a call that kills the server
    When the agent calls "review_status" with {"change_id": "CR-666"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable

  Scenario: the next scenario gets a fresh server
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved.json"
    And the upstream adds the property "admin_override" carrying a canary
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
`
	res, err := Run(context.Background(), Config{
		Features: fstest.MapFS{"crash.feature": {Data: []byte(feature)}}, Target: server, Concurrency: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]reports.Status{}
	for _, sc := range res.Scenarios {
		got[sc.Name] = sc.Status
		if sc.Name == "a call that kills the server" && (!strings.Contains(sc.Error, "exit status 3") || !strings.Contains(sc.Error, "CR-666 called")) {
			t.Errorf("the crash's evidence lacks the exit status or stderr: %q", sc.Error)
		}
	}
	if got["a call that kills the server"] != reports.Failed || got["the next scenario gets a fresh server"] != reports.Passed {
		t.Errorf("statuses %v, want the crash failed and the next passed", got)
	}
	if res.Summary.TargetRestarts != 1 {
		t.Errorf("TargetRestarts = %d, want 1", res.Summary.TargetRestarts)
	}
}
