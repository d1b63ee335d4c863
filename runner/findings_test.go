package runner

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
	"github.com/toolcert/toolcert/targets/testdata/hostile"
)

// exposedEnv makes this test binary serve the reference adapter the
// hostile way its value names: "bind" listens on every interface at the
// listen address's port, "spawn" first starts a process in a session of
// its own that outlives it.
const exposedEnv = "TOOLCERT_TEST_FINDINGS"

func init() {
	hostile.Play(os.Args[1:])
	switch os.Getenv(exposedEnv) {
	case "bind":
		os.Exit(serveReferenceOn("0.0.0.0"))
	case "spawn":
		if _, err := hostile.Spawn(hostile.Setsid, ""); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(serveReferenceOn(""))
	}
}

// serveReferenceOn serves the reference adapter from the TOOLCERT_*
// environment, on host at the listen address's port ("" keeps the host).
func serveReferenceOn(host string) int {
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
	addr := cfg.Listen
	if host != "" {
		_, port, _ := net.SplitHostPort(addr)
		addr = net.JoinHostPort(host, port)
	}
	if err := http.ListenAndServe(addr, a); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestTargetFindings: an adapter that listens beyond loopback, and one
// that leaves a process running after it was stopped, pass every feature
// scenario and still fail the run, each with a scenario of feature
// "target" whose evidence names the address or the process, and a FAIL
// progress line as every failed scenario has.
func TestTargetFindings(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("where a target listens and what it leaves running are checked on Linux only")
	}
	for _, tt := range []struct{ mode, name, want string }{
		{"bind", exposedName, "reachable from the network during certification: tcp "},
		{"spawn", leftoverName, "toolcert killed and named each: pid "},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			tgt, err := targets.NewProcess([]string{os.Args[0]}, targets.WithExtraEnv(map[string]string{exposedEnv: tt.mode}))
			if err != nil {
				t.Fatal(err)
			}
			var progress bytes.Buffer
			res, err := Run(context.Background(), Config{
				Features: fstest.MapFS{"one.feature": {Data: []byte(oneScenario)}}, Target: tgt, Concurrency: 1, Progress: &progress,
			})
			if err != nil {
				t.Fatal(err)
			}
			var finding *reports.Scenario
			for i, sc := range res.Scenarios {
				switch {
				case sc.Feature == reports.TargetFeature && sc.Name == tt.name:
					finding = &res.Scenarios[i]
				case sc.Status != reports.Passed:
					t.Errorf("%s: %s (%s)", sc.ID, sc.Status, sc.Error)
				}
			}
			if finding == nil {
				t.Fatalf("no scenario %q among %d", tt.name, len(res.Scenarios))
			}
			if finding.Status != reports.Failed || len(finding.Evidence) == 0 || !strings.Contains(finding.Evidence[0].Message, tt.want) {
				t.Errorf("finding %s %+v, want failed with evidence holding %q", finding.Status, finding.Evidence, tt.want)
			}
			if v, _ := res.Summary.Verdict(); v == reports.VerdictPassed {
				t.Error("the run passed with a finding")
			}
			wantLine := regexp.MustCompile(`(?m)^FAIL target: ` + regexp.QuoteMeta(tt.name) + ` \(0ms\)\n     the target .*` + regexp.QuoteMeta(tt.want))
			if !wantLine.MatchString(progress.String()) {
				t.Errorf("progress:\n%s\nwant a FAIL line of the finding matching %s", &progress, wantLine)
			}
		})
	}
}
