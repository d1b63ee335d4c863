package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// emptyMCPArg, as the first argument of this test binary, makes it serve
// an MCP server of no tool over stdio.
const emptyMCPArg = "empty-mcp-server"

// serveEmptyMCP serves an MCP server that lists no tool, or, with the
// argument "version", one tool that answers without asking any upstream.
func serveEmptyMCP() int {
	s := mcp.NewServer(&mcp.Implementation{Name: "empty", Version: "0"}, nil)
	if len(os.Args) > 2 && os.Args[2] == "version" {
		mcp.AddTool(s, &mcp.Tool{Name: "version"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "empty 0"}}}, nil, nil
		})
	}
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		return 1
	}
	return 0
}

// TestDiscoverReviews discovers the reviews example's server from its
// OpenAPI description alone, with nothing named: the variable it reads
// its upstream from, the tool's route and arguments; the config written
// then fails the naive server on its leaks, and the "fixed" one on the
// upstream's real answer, which it refuses.
func TestDiscoverReviews(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "reviews-server")
	if out, err := exec.Command("go", "build", "-o", bin, "../../examples/reviews/server").CombinedOutput(); err != nil {
		t.Fatalf("build the reviews server: %v\n%s", err, out)
	}
	dir := t.TempDir()
	code, stdout, stderr := runCLI(t, "discover", "--openapi", "../../examples/reviews/openapi.yaml", "--target-mcp-cmd", bin, "--out", dir)
	if code != exitPass {
		t.Fatalf("discover exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "1 mapped") || !strings.Contains(stdout, "GITHUB_API_URL") {
		t.Errorf("stdout does not say the tool was mapped and GITHUB_API_URL wired:\n%s", stdout)
	}
	config := filepath.Join(dir, "toolcert.yaml")
	// The "fixed" server pins the four members its own corpus keeps
	// (docs/certify-an-mcp-server.md): it refuses GitHub's real answers,
	// which is what the description's example is, and discover keeps the
	// answer whole. The run says so on the honest answer itself.
	code, stdout, _ = runCLI(t, "run", "--config", config, "--target-mcp-cmd", bin+" --fixed", "--quiet", "--out", filepath.Join(dir, "fixed"))
	if code != exitFail || !strings.Contains(stdout, `case list_pull_request_reviews/discovered/accepted: the agent saw outcome "failure"`) {
		t.Errorf("the pinned server: exit %d, want 1 with the honest answer refused\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(t, "run", "--config", config, "--quiet", "--out", filepath.Join(dir, "naive"))
	if code != exitFail || !strings.Contains(stdout, "429 with Retry-After") {
		t.Errorf("the naive server: exit %d, want 1 with the 429's leak\n%s", code, stdout)
	}
	if code, _, stderr := runCLI(t, "discover", "--openapi", "../../examples/reviews/openapi.yaml", "--target-mcp-cmd", bin, "--out", dir); code != exitConfig || !strings.Contains(stderr, "--force") {
		t.Errorf("discover into a folder that holds a config: exit %d, want 2 naming --force\n%s", code, stderr)
	}
}

// TestDiscoverFailsClearly: a server that does not start, and one that
// lists no tool, end discover with exit 2 and a sentence saying so.
func TestDiscoverFailsClearly(t *testing.T) {
	spec := "../../examples/reviews/openapi.yaml"
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct{ cmd, want string }{
		"no such program": {filepath.Join(t.TempDir(), "no-such-server"), "the server did not start"},
		"no tools":        {self + " " + emptyMCPArg, "the server lists no tools"},
	} {
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "discover", "--openapi", spec, "--target-mcp-cmd", c.cmd, "--out", t.TempDir())
			if code != exitConfig || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, want 2 saying %q\nstdout:\n%s\nstderr:\n%s", code, c.want, stdout, stderr)
			}
		})
	}
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, "discover", "--openapi", spec, "--target-mcp-cmd", self+" "+emptyMCPArg+" version", "--out", out)
	if _, err := os.Stat(filepath.Join(out, "toolcert.yaml")); code != exitFail || err == nil || !strings.Contains(stdout, "No tool mapped") {
		t.Errorf("no tool mapped: exit %d, want 1, no toolcert.yaml (%v), and a line saying so\n%s\n%s", code, err, stdout, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(out, "DISCOVERY.md")); err != nil || !strings.Contains(string(b), "no request reached the upstream") {
		t.Errorf("DISCOVERY.md does not say why version was left out: %v\n%s", err, b)
	}
	if code, _, stderr := runCLI(t, "discover", "--target-mcp-cmd", "x"); code != exitConfig || !strings.Contains(stderr, "--openapi or --upstream is required") {
		t.Errorf("no --openapi: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "discover", "--upstream", "https://api.example.com", "--target-mcp-cmd", "x", "--out", t.TempDir()); code != exitConfig || !strings.Contains(stderr, "off loopback") {
		t.Errorf("an upstream off loopback: exit %d\n%s", code, stderr)
	}
}
