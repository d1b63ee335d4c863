package ticket_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/targets"
)

// minCases is the fewest generated variants the ticket corpus must yield;
// a drop means the corpus or the generator lost coverage.
const minCases = 500

// TestLint checks the example corpus as `toolcert fixtures lint` does.
func TestLint(t *testing.T) {
	c := corpus.New(os.DirFS("fixtures"))
	for _, p := range corpus.Lint(c, time.Now(), corpus.DefaultLimits()) {
		t.Error(p)
	}
}

// TestPinnedSchemas checks that the adapter pins exactly the schemas of the
// corpus it is certified against.
func TestPinnedSchemas(t *testing.T) {
	c := corpus.New(os.DirFS("fixtures"))
	tool, err := c.Tool("ticket_status")
	if err != nil {
		t.Fatal(err)
	}
	vendor, err := c.UpstreamSchema(tool, "v1")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		corpus []byte
		pinned string
	}{
		{"arguments", tool.Arguments, "adapter/schemas/ticket_status.args.json"},
		{"vendor v1", vendor, "adapter/schemas/ticket_status.vendor.v1.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pinned, err := os.ReadFile(tt.pinned)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(decode(t, tt.corpus), decode(t, pinned)); diff != "" {
				t.Errorf("%s differs from the corpus (-corpus +pinned):\n%s", tt.pinned, diff)
			}
		})
	}
}

// TestCertify runs the example's features and every generated variant
// against the adapter, then against the adapter broken with --forward-body.
func TestCertify(t *testing.T) {
	bin := buildAdapter(t)

	t.Run("adapter passes", func(t *testing.T) {
		res := certify(t, bin)
		if res.Summary.Failed != 0 || res.Summary.Skipped != 0 || res.Summary.Leaks != 0 {
			t.Errorf("summary %+v, want every scenario passed and no leak; failed: %v", res.Summary, failedIDs(res))
		}
		if res.Summary.Cases < minCases || res.Summary.CasesFailed != 0 {
			t.Errorf("generated cases: %d run, %d failed; want at least %d, none failed",
				res.Summary.Cases, res.Summary.CasesFailed, minCases)
		}
	})

	t.Run("adapter with --forward-body is caught leaking", func(t *testing.T) {
		res := certify(t, bin, "--forward-body")
		if res.Summary.Failed == 0 || res.Summary.CasesFailed == 0 || res.Summary.Leaks == 0 {
			t.Fatalf("summary %+v, want failed scenarios, failed cases and leaks", res.Summary)
		}
		failed := failedIDs(res)
		for _, want := range []string{
			"ticket.feature: an open ticket reaches the agent as its four fields only",
			"ticket_status/open/accepted",
			"ticket_status/pending_vendor/accepted",
			"ticket_status/closed/accepted",
		} {
			if !slices.Contains(failed, want) {
				t.Errorf("%q passed, want it caught; failed: %v", want, failed)
			}
		}
		leak, ok := firstLeak(res)
		if !ok {
			t.Fatalf("no leak evidence in the result; failed: %v", failedIDs(res))
		}
		if !strings.Contains(leak.Planted, "placeholder body") || leak.Surfaced != "body" {
			t.Errorf("leak %+v, want the vendor's body canary surfacing in the agent's body", leak)
		}
	})
}

// buildAdapter builds ./adapter into a temporary folder and returns the
// binary's path.
func buildAdapter(tb testing.TB) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "ticket-adapter")
	out, err := exec.Command("go", "build", "-o", bin, "./adapter").CombinedOutput()
	if err != nil {
		tb.Fatalf("go build ./adapter: %v\n%s", err, out)
	}
	return bin
}

// certify runs the example's features against the adapter binary started
// with args, one process per lane, and returns the result.
func certify(tb testing.TB, bin string, args ...string) *reports.Result {
	tb.Helper()
	tgt, err := targets.NewProcess(append([]string{bin}, args...))
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	tb.Cleanup(cancel)
	res, err := runner.Run(ctx, runner.Config{
		Features:    os.DirFS("features"),
		Fixtures:    os.DirFS("fixtures"),
		Target:      tgt,
		Profile:     targets.DefaultProfile(),
		Concurrency: 2,
		Seed:        42,
		WorkDir:     tb.TempDir(),
	})
	if err != nil {
		tb.Fatalf("run: %v", err)
	}
	return res
}

// firstLeak returns the first leak evidence of a scenario or case.
func firstLeak(res *reports.Result) (reports.Evidence, bool) {
	for _, sc := range res.Scenarios {
		evs := sc.Evidence
		for _, c := range sc.Cases {
			evs = append(evs, c.Evidence...)
		}
		for _, ev := range evs {
			if ev.Kind == reports.EvidenceLeak {
				return ev, true
			}
		}
	}
	return reports.Evidence{}, false
}

// failedIDs lists the failed scenarios and cases, for a test's message.
func failedIDs(res *reports.Result) []string {
	var ids []string
	for _, sc := range res.Scenarios {
		if sc.Status != reports.Passed {
			ids = append(ids, sc.ID)
		}
		for _, c := range sc.Cases {
			if c.Status != reports.Passed {
				ids = append(ids, c.ID)
			}
		}
	}
	return ids
}

// decode parses a JSON document for comparison.
func decode(tb testing.TB, b []byte) any {
	tb.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		tb.Fatalf("decode: %v", err)
	}
	return v
}
