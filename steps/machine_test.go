package steps

import (
	"strings"
	"testing"

	"github.com/toolcert/toolcert/internal/harness"
)

// TestMachineNote: the evidence of a call made while the machine's
// connection tracking table was full says so, and only then.
func TestMachineNote(t *testing.T) {
	if got := machineNote(&call{Call: &harness.Call{ConntrackFull: true}}); !strings.Contains(got, "nf_conntrack") {
		t.Errorf("machineNote of a call made while the table was full = %q, want the table named", got)
	}
	for _, c := range []*call{nil, {}, {Call: &harness.Call{}}} {
		if got := machineNote(c); got != "" {
			t.Errorf("machineNote(%+v) = %q, want none", c, got)
		}
	}
}
