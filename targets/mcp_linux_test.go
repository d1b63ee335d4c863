package targets

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/toolcert/toolcert/targets/testdata/hostile"
)

// TestMCPExposed checks that the instances of MCP servers the harness
// starts say where their processes listen beyond loopback.
func TestMCPExposed(t *testing.T) {
	bin := buildFakeMCP(t)
	stdio := func(args ...string) Target {
		target, err := NewMCPStdio(append([]string{bin}, args...))
		if err != nil {
			t.Fatal(err)
		}
		return target
	}
	overHTTP := func(listen string) Target {
		target, err := NewMCPHTTPProcess([]string{bin, "--listen", listen}, "")
		if err != nil {
			t.Fatal(err)
		}
		return target
	}
	tests := []struct {
		name   string
		target Target
		want   string // a pattern of the one entry, "" for none
	}{
		{"stdio, no listener", stdio(), ""},
		{"stdio with a debug port on every interface", stdio("--debug-listen", "0.0.0.0:0"), `^tcp (0\.0\.0\.0|\[::\]):\d+ \(pid \d+: .*fakemcp --debug-listen 0\.0\.0\.0:0\)$`},
		{"stdio with a debug port on loopback", stdio("--debug-listen", "127.0.0.1:0"), ""},
		{"http on the loopback address it was given", overHTTP("{{.Listen}}"), ""},
		{"http on every interface", overHTTP("0.0.0.0:{{.Port}}"), `^tcp (0\.0\.0\.0|\[::\]):\d+ \(pid \d+: .*fakemcp --listen 0\.0\.0\.0:\d+\)$`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inst := startMCP(t, tt.target)
			checker, ok := inst.(ExposureChecker)
			if !ok {
				t.Fatalf("%T is not an ExposureChecker", inst)
			}
			got, err := checker.Exposed(t.Context())
			if err != nil {
				t.Fatalf("Exposed: %v", err)
			}
			switch {
			case tt.want == "" && len(got) != 0:
				t.Errorf("Exposed() = %q, want none", got)
			case tt.want != "" && (len(got) != 1 || !regexp.MustCompile(tt.want).MatchString(got[0])):
				t.Errorf("Exposed() = %q, want one entry matching %s", got, tt.want)
			}
		})
	}
	t.Run("a server already running is not the harness's to check", func(t *testing.T) {
		target, err := NewMCPURL("http://127.0.0.1:9/mcp")
		if err != nil {
			t.Fatal(err)
		}
		var inst Instance = &mcpHTTPInstance{endpoint: target.endpoint}
		if _, ok := inst.(ExposureChecker); ok {
			t.Errorf("an MCP server reached by URL claims to be an ExposureChecker")
		}
	})
}

// TestMCPStdioLeftovers checks that Stop of an MCP server over stdio kills
// and reports the orphan of its double fork.
func TestMCPStdioLeftovers(t *testing.T) {
	bin := buildFakeMCP(t)
	target, err := NewMCPStdio([]string{bin, "--spawn", hostile.DoubleFork})
	if err != nil {
		t.Fatal(err)
	}
	inst := startMCP(t, target)
	m := regexp.MustCompile(`fakemcp: spawned pid (\d+)`).FindStringSubmatch(inst.Logs())
	if m == nil {
		t.Fatalf("no spawned pid in the server's stderr %q", inst.Logs())
	}
	pid, _ := strconv.Atoi(m[1])
	orphan := watchProcess(t, pid)
	if err := inst.Stop(context.Background()); err != nil {
		t.Errorf("Stop: %v", err)
	}
	if orphan.alive() {
		t.Errorf("the orphan %d still runs after Stop", pid)
	}
	left := inst.(LeftoverReporter).Leftovers()
	if len(left) != 1 || !strings.HasPrefix(left[0], "pid "+m[1]+": ") {
		t.Errorf("Leftovers() = %q, want the orphan %d", left, pid)
	}
}
