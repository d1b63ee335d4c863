package harness_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/targets"
)

func TestHTTPOutputNamesEveryPart(t *testing.T) {
	out := harness.HTTPOutput(targets.Output{
		StatusLine: "HTTP/1.1 200 OK",
		Header:     http.Header{"X-B": {"2"}, "Content-Type": {"application/json"}, "X-A": {"1", "one"}},
		Trailer:    http.Header{"X-T": {"t"}},
		Body:       []byte(`{"outcome":"success"}`),
	})
	var got []string
	for _, p := range out.Parts {
		got = append(got, p.Where+"="+string(p.Data))
	}
	want := []string{
		"status line=HTTP/1.1 200 OK",
		"header Content-Type=Content-Type: application/json",
		"header X-A=X-A: 1, one",
		"header X-B=X-B: 2",
		"trailer X-T=X-T: t",
		`body={"outcome":"success"}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
	if string(out.Result) != `{"outcome":"success"}` || out.ResultWhere != harness.PartBody {
		t.Errorf("result %q in %q, want the body", out.Result, out.ResultWhere)
	}
}

func TestAuditEvents(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	log := `{"request_id":"req.1","gate":"none"}
not json at all
{"request_id":"req.2","gate":"parse"}

{"request_id":"req.1","gate":"schema"}
`
	if err := os.WriteFile(path, []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		from int64
		id   string
		want int
	}{
		{"every event of an id, bad lines passed over", 0, "req.1", 2},
		{"from an offset", int64(len(`{"request_id":"req.1","gate":"none"}` + "\n")), "req.1", 1},
		{"an id without events", 0, "req.9", 0},
	}
	for _, tt := range tests {
		got, err := harness.AuditEvents(path, tt.from, tt.id)
		if err != nil || len(got) != tt.want {
			t.Errorf("%s: %d events, %v; want %d", tt.name, len(got), err, tt.want)
		}
	}
	if got, err := harness.AuditEvents(filepath.Join(t.TempDir(), "none.jsonl"), 0, "req.1"); err != nil || got != nil {
		t.Errorf("a log not written yet: %v, %v; want no event and no error", got, err)
	}
	if n := harness.AuditSize(path); n != int64(len(log)) {
		t.Errorf("AuditSize = %d, want %d", n, len(log))
	}
}

func TestLaneAuditEvent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	if err := os.WriteFile(path, []byte(`{"request_id":"req.1"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	lane := &harness.Lane{AuditFile: path}
	if raw, err := lane.AuditEvent(context.Background(), 0, "req.1"); err != nil || string(raw) != `{"request_id":"req.1"}` {
		t.Errorf("AuditEvent = %s, %v", raw, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if raw, err := lane.AuditEvent(ctx, 0, "req.2"); err != nil || raw != nil {
		t.Errorf("no event: %s, %v; want none and no error", raw, err)
	}
	if _, err := (&harness.Lane{}).AuditEvent(context.Background(), 0, "req.1"); err != harness.ErrNoAudit {
		t.Errorf("no log: %v, want ErrNoAudit", err)
	}
}
