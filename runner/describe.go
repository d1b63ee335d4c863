package runner

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/targets"
)

// describe returns how the agent calls the pool's target, what the target
// has (an MCP server's own declaration, or every capability of protocol
// v1; Config.Capabilities replaces either; audit needs a log the harness
// can read) and, for an MCP server, the tools its first session listed.
func describe(pool *harness.Pool, cfg *Config, client *targets.Client) (harness.Agent, targets.Capabilities, []*mcp.Tool) {
	lane := pool.Lanes()[0]
	var (
		agent harness.Agent = harness.V1Agent{Client: client}
		caps                = targets.V1Capabilities(true)
	)
	var tools []*mcp.Tool
	if mi, ok := lane.Target.(targets.MCPInstance); ok {
		agent, caps, tools = harness.MCPAgent{Tools: cfg.Tools}, mi.Capabilities(), mi.Tools()
	}
	if cfg.Capabilities != nil {
		caps = *cfg.Capabilities
	}
	caps.Audit = caps.Audit && lane.AuditFile != ""
	return agent, caps, tools
}
