package selftest_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/toolcert/toolcert/adapters/mcpbridge"
	"github.com/toolcert/toolcert/adapters/mutant"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
)

// Why a mutant's protection cannot be seen through an MCP server that
// bridges a protocol v1 adapter (docs/protocol.md, "The reference adapter
// over MCP"): what it breaks does not cross the bridge, or its scenarios
// need what MCP lacks.
const (
	noApprovals = "approvals need the human's endpoint, which MCP lacks: the approval scenarios are not applicable"
	noCutBody   = "a cut invocation body is protocol v1's: the scenario is not applicable"
	sdkRefuses  = "the go-sdk server refuses a tool name it does not list before the adapter sees it"
	notBridged  = "the bridge passes only the data, the code, the retryable flag and the request id: what the mutant leaks does not cross"
	mcpLayer    = "the fault is in the MCP server layer: over protocol v1 the mutant is the reference"
)

// notOverMCP names the mutants the self-test over MCP cannot catch, and
// why. Every other mutant must be caught over MCP where catches says.
var notOverMCP = map[string]string{
	"approval-any-session":       noApprovals,
	"approval-reusable":          noApprovals,
	"arguments-not-rebound":      noApprovals,
	"ask-executes":               noApprovals,
	"no-idempotency-key":         noApprovals,
	"partial-stream-acted-on":    noCutBody,
	"case-insensitive-tool":      sdkRefuses,
	"upstream-excerpt-in-header": notBridged,
	"upstream-headers-forwarded": notBridged,
	"validator-text-in-error":    notBridged,
}

// approvalsFeature holds only approval scenarios, none of which applies
// over MCP (noApprovals).
const approvalsFeature = "features/calls_approvals.feature"

// mcpOnlyFeature holds the scenarios of MCP servers: over protocol v1 the
// stdout, tool list and output schema ones are not applicable.
const mcpOnlyFeature = "features/mcp_server.feature"

// caughtOverV1 runs the named mutant over protocol v1 and returns the
// steps that failed: it must be caught where catches says, but for a
// mutant of the MCP server layer, which must pass.
func caughtOverV1(t *testing.T, name string) []string {
	var tgt targets.Target
	var err error
	if mutant.Crashes(name) {
		tgt, err = targets.NewProcess([]string{mutantBinary(t), "--mutant", name})
	} else {
		tgt, err = mutant.InProcess(name)
	}
	if err != nil {
		t.Fatal(err)
	}
	if mutant.MCPOnly(name) {
		notCaught(t, name, tgt, mcpLayer)
		return nil
	}
	return caught(t, name, tgt, catches[name])
}

// caughtOverMCP runs the named mutant as an MCP server and returns the
// steps that failed: it must be caught where catches says (but in the
// approval feature), unless notOverMCP says why it cannot be.
func caughtOverMCP(t *testing.T, name string) []string {
	tgt := mcpMutant(t, name)
	if why, ok := notOverMCP[name]; ok {
		notCaught(t, name, tgt, why)
		return nil
	}
	var cs []catch
	for _, c := range catches[name] {
		if c.feature != approvalsFeature {
			cs = append(cs, c)
		}
	}
	if len(cs) == 0 {
		t.Fatalf("mutant %s has no catch that applies over MCP: name it in notOverMCP with the reason", name)
	}
	return caught(t, name, tgt, cs)
}

// notCaught runs the features of the named mutant's catches against tgt
// and checks that none fails: the table's reason why it cannot be caught
// there still holds.
func notCaught(t *testing.T, name string, tgt targets.Target, why string) {
	t.Helper()
	var features []string
	for _, c := range catches[name] {
		if c.feature != "" {
			features = append(features, c.feature)
		}
	}
	res := featuresRun(t, tgt, "", features...)
	if res.Summary.Failed != 0 {
		t.Errorf("mutant %s is caught against %s after all (%s): update the table", name, tgt, why)
	}
	t.Logf("not caught against %s: %s", tgt, why)
}

// mcpMutant returns the named mutant as an MCP server: in memory, or, for
// one that prints a banner or crashes its process, the toolcert-mutant
// binary on stdio.
func mcpMutant(t *testing.T, name string) targets.Target {
	if mutant.Banner(name) == "" && !mutant.Crashes(name) {
		tgt, err := mutant.InProcessMCP(name)
		if err != nil {
			t.Fatal(err)
		}
		return tgt
	}
	tgt, err := targets.NewMCPStdio([]string{mutantBinary(t), "--mcp", "stdio", "--mutant", name})
	if err != nil {
		t.Fatal(err)
	}
	return tgt
}

var (
	mutantOnce sync.Once
	mutantBin  string
	mutantErr  error
	// buildDir holds binaries the tests build; TestMain removes it.
	buildDir string
)

// TestMain runs the tests, then removes what they built.
func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// mutantBinary builds cmd/toolcert-mutant once per test binary.
func mutantBinary(t testing.TB) string {
	mutantOnce.Do(func() {
		if buildDir, mutantErr = os.MkdirTemp("", "toolcert-selftest-"); mutantErr != nil {
			return
		}
		mutantBin = filepath.Join(buildDir, "toolcert-mutant")
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, "go", "build", "-o", mutantBin, "../cmd/toolcert-mutant").CombinedOutput()
		if err != nil {
			mutantErr = fmt.Errorf("%w: %s", err, out)
		}
	})
	if mutantErr != nil {
		t.Fatalf("build toolcert-mutant: %v", mutantErr)
	}
	return mutantBin
}

// TestReferencePassesOverMCP: the reference over MCP passes every built-in
// scenario that applies, without a leak or a failed case.
func TestReferencePassesOverMCP(t *testing.T) {
	res := builtinRun(t, mcpbridge.InProcessReference(), "")
	for _, sc := range res.Scenarios {
		if sc.Status != reports.Passed && sc.Status != reports.NotApplicable {
			t.Errorf("%s: %q %s:\n%s", sc.Feature, sc.Name, sc.Status, sc.Error)
		}
	}
	if res.Summary.Leaks != 0 || res.Summary.CasesFailed != 0 || res.Summary.Passed < 90 {
		t.Errorf("summary %+v: want no leak, no failed case and at least 90 passed", res.Summary)
	}
	passesAtBothLevels(t, res)
}
