package pipeline

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

func TestToolClonesAnswerUnderTheirOwnName(t *testing.T) {
	up := newUpstream(t, json200(reviewOK))
	var audit bytes.Buffer
	a := newTestAdapter(t, up.URL, WithAuditWriter(&audit), WithToolClones(map[string]string{"review_status_07": "review_status"}))
	status, body := call(t, a, "review_status_07", `{"arguments":{"change_id":"CR-1042"}}`)
	ev := lastEvent(t, &audit)
	want := `{"tool":"review_status_07","request_id":"` + ev.RequestID + `","outcome":"success","data":{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice"}}`
	if status != 200 || body != want {
		t.Errorf("clone call = %d %s, want 200 %s", status, body, want)
	}
	if ev.Tool != "review_status_07" || ev.Gate != protocol.GateNone || ev.Decision == nil || ev.Decision.Tool != "review_status_07" {
		t.Errorf("audit event tool %q, gate %q, decision %+v; want the clone's name, no gate", ev.Tool, ev.Gate, ev.Decision)
	}
	if got := up.calls.Load(); got != 1 {
		t.Errorf("upstream calls = %d, want 1", got)
	}
}

func TestToolCloneChecksAsItsOriginal(t *testing.T) {
	up := newUpstream(t, json200(strings.Replace(reviewOK, `"CR-1042"`, `"CR-9"`, 1)))
	var audit bytes.Buffer
	a := newTestAdapter(t, up.URL, WithAuditWriter(&audit), WithToolClones(map[string]string{"review_status_07": "review_status"}))
	_, body := call(t, a, "review_status_07", `{"arguments":{"change_id":"CR-1042"}}`)
	ev := lastEvent(t, &audit)
	if want := string(gate.Failure("review_status_07", ev.RequestID, protocol.CodeInvalidResponse, false)); body != want {
		t.Errorf("a wrong bound id through the clone = %s, want %s", body, want)
	}
	if ev.Gate != protocol.GateSemantic {
		t.Errorf("audit gate %q, want %q (the original's binding check)", ev.Gate, protocol.GateSemantic)
	}
}

func TestToolClonesRefused(t *testing.T) {
	tests := []struct {
		name   string
		clones map[string]string
	}{
		{"a clone of a tool the reference lacks", map[string]string{"x_01": "delete_repo"}},
		{"a clone of a call-side tool", map[string]string{"send_email_01": "send_email"}},
		{"a clone of a clone", map[string]string{"a_01": "review_status", "b_01": "a_01"}},
		{"a clone that shadows a reference tool", map[string]string{"run_status": "review_status"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.UpstreamURL = "http://127.0.0.1:1"
			a, err := New(cfg, WithAuditWriter(&bytes.Buffer{}), WithToolClones(tt.clones))
			if a != nil || !errors.Is(err, ErrClone) {
				t.Errorf("New = %v, %v; want nil, ErrClone", a, err)
			}
		})
	}
}
