package registry_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestDiscoverCertifies is docs/certify-every-tool.md as a test: from
// nothing but the server, openapi.yaml and the server's limits
// (profile.json: 64 KiB, 3 attempts in 2 s), toolcert discover maps every
// read-only tool with no hand edit; the run it writes passes the fixed
// server at level safe, and fails the naive one on each planted defect of
// DEFECTS.md and on nothing else.
func TestDiscoverCertifies(t *testing.T) {
	bins := t.TempDir()
	toolcert, server := filepath.Join(bins, "toolcert"), filepath.Join(bins, "registry-server")
	for bin, pkg := range map[string]string{toolcert: "../../cmd/toolcert", server: "./server"} {
		if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	dir := t.TempDir()
	out, err := exec.Command(toolcert, "discover", "--openapi", "openapi.yaml", "--target-mcp-cmd", server, "--profile", "profile.json", "--out", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("toolcert discover: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "16 tools found (14 read-only), 14 called, 14 mapped (14 of the read-only), 14 written.") ||
		!strings.Contains(string(out), "REGISTRY_API_URL") {
		t.Errorf("discover did not map every read-only tool through REGISTRY_API_URL:\n%s", out)
	}
	config := filepath.Join(dir, "toolcert.yaml")

	fixed := exec.Command(toolcert, "run", "--config", config, "--target-mcp-cmd", server+" --fixed", "--quiet", "--out", filepath.Join(dir, "fixed"))
	if out, err := fixed.CombinedOutput(); err != nil {
		t.Errorf("the fixed server at level safe: %v, want a pass\n%s", err, tail(out))
	}

	naive := exec.Command(toolcert, "run", "--config", config, "--quiet", "--out", filepath.Join(dir, "naive"))
	if out, err := naive.CombinedOutput(); err == nil {
		t.Fatalf("the naive server passed:\n%s", tail(out))
	}
	failed := safeFailures(t, filepath.Join(dir, "naive", "results.json"))
	found := map[string]bool{}
	for _, f := range failed {
		d := defectOf(f)
		if d == "" {
			t.Errorf("a failure no planted defect explains (a false failure): %s\nits record: %s", f, caseRecord(t, filepath.Join(dir, "naive", "results.json"), f))
		}
		found[d] = true
	}
	for _, d := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		if !found[d] {
			t.Errorf("planted defect %s was not found; failures: %v", d, failed)
		}
	}
}

// safeFailures returns what failed at level safe: each generated case by
// "ID: EVIDENCE" (its evidence at level safe, the messages joined by
// " | "), each other scenario by "scenario: NAME: ERROR".
func safeFailures(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Scenarios []struct {
			Name   string            `json:"name"`
			Error  string            `json:"error"`
			Levels map[string]string `json:"levels"`
			Cases  []struct {
				ID       string            `json:"id"`
				Levels   map[string]string `json:"levels"`
				Evidence []struct {
					Message string `json:"message"`
					Level   string `json:"level"`
				} `json:"evidence"`
			} `json:"cases"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range res.Scenarios {
		if len(s.Cases) == 0 && s.Levels["safe"] == "failed" {
			out = append(out, "scenario: "+s.Name+": "+s.Error)
		}
		for _, c := range s.Cases {
			if c.Levels["safe"] != "failed" {
				continue
			}
			var msgs []string
			for _, e := range c.Evidence {
				if e.Level != "strict" {
					msgs = append(msgs, e.Message)
				}
			}
			out = append(out, c.ID+": "+strings.Join(msgs, " | "))
		}
	}
	sort.Strings(out)
	return out
}

// caseRecord returns the record results.json keeps of the case a failure
// of safeFailures names (what the agent saw, the upstream's requests, the
// target's output), clipped, or "" for a scenario.
func caseRecord(t *testing.T, path, failure string) string {
	t.Helper()
	id, _, _ := strings.Cut(failure, ": ")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Scenarios []struct {
			Cases []json.RawMessage `json:"cases"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Scenarios {
		for _, c := range s.Cases {
			var head struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(c, &head) == nil && head.ID == id {
				return string(c[:min(len(c), 8000)])
			}
		}
	}
	return ""
}

// defectOf names the planted defect (DEFECTS.md) a failure shows, "" for
// none.
func defectOf(failure string) string {
	f := failure
	if !strings.HasPrefix(f, "scenario: ") {
		f, _, _ = strings.Cut(f, ": ") // a case's ID, without its evidence
	}
	switch {
	case strings.Contains(f, "duplicate"):
		return "f" // every tool takes a repeated member's last value
	case strings.HasPrefix(f, "get_advisory/") && (strings.Contains(f, "/upstream_status") || strings.Contains(f, "/upstream_5xx")):
		return "a" // the upstream's message in the agent's text
	case strings.HasPrefix(f, "get_version/mirrored/"):
		return "b" // published_by: null crashes the process
	case strings.HasPrefix(f, "scenario: hostile string arguments") && strings.Contains(f, "get_user"):
		return "c" // the login into the path unescaped
	case strings.HasPrefix(f, "get_readme/") && strings.Contains(f, "/over_byte_limit"):
		return "d" // the readme read without a limit
	case strings.HasPrefix(f, "registry_stats/") && strings.Contains(f, "/upstream_5xx"),
		strings.HasPrefix(f, "scenario: a hostile upstream answer (503") && strings.Contains(f, "registry_stats"):
		return "e" // eight attempts at a 503
	case strings.HasPrefix(f, "get_package/") && strings.Contains(f, "/wrong_bound_id"):
		return "g" // another package shown as the one asked for
	}
	return ""
}

// tail returns the end of a command's output, for a failure's message.
func tail(out []byte) string {
	s := string(out)
	if len(s) > 4000 {
		s = "..." + s[len(s)-4000:]
	}
	return s
}
