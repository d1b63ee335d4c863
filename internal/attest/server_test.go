package attest

import (
	"testing"

	"github.com/toolcert/toolcert/adapters/mcpbridge"
	"github.com/toolcert/toolcert/targets"
)

func TestServerRecorder(t *testing.T) {
	rec := NewServerRecorder(mcpbridge.InProcessReference())
	if _, _, ok := rec.Server(); ok {
		t.Fatal("a recorder that started nothing has a server")
	}
	inst, err := rec.Start(t.Context(), targets.Env{UpstreamURL: "http://127.0.0.1:9", Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = inst.Stop(t.Context()) })
	if _, ok := inst.(targets.MCPInstance); !ok {
		t.Errorf("the recorder's instance is a %T, not the MCP instance itself", inst)
	}
	name, version, ok := rec.Server()
	if !ok || name == "" || version == "" {
		t.Errorf("Server() = %q, %q, %v; want what the reference reported", name, version, ok)
	}
}
