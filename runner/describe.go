package runner

import (
	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/targets"
)

// describe returns how the agent calls the pool's target and what the
// target has: an MCP server's own declaration, or every capability of
// protocol v1; Config.Capabilities replaces either. Audit needs a log the
// harness can read.
func describe(pool *harness.Pool, cfg *Config, client *targets.Client) (harness.Agent, targets.Capabilities) {
	lane := pool.Lanes()[0]
	var (
		agent harness.Agent = harness.V1Agent{Client: client}
		caps                = targets.V1Capabilities(true)
	)
	if mi, ok := lane.Target.(targets.MCPInstance); ok {
		agent, caps = harness.MCPAgent{Tools: cfg.Tools}, mi.Capabilities()
	}
	if cfg.Capabilities != nil {
		caps = *cfg.Capabilities
	}
	caps.Audit = caps.Audit && lane.AuditFile != ""
	return agent, caps
}
