package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolcert/toolcert/target"
)

func TestAuditFileAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	if err := os.WriteFile(path, []byte("{\"earlier\":true}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	up := newUpstream(t, json200(reviewOK))
	a, closer, err := Build(target.Env{UpstreamURL: up.URL, AuditFile: path})
	if err != nil {
		t.Fatal(err)
	}
	call(t, a, "review_status", `{"arguments":{"change_id":"CR-1042"}}`)
	call(t, a, "no_such_tool", `{"arguments":{}}`)
	if err := closer.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], `"reason":"ok"`) || !strings.Contains(lines[2], `"reason":"tool_not_allowlisted"`) {
		t.Errorf("audit file:\n%s\nwant the earlier line, then ok, then tool_not_allowlisted", b)
	}
}
