package runner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/targets"
)

// describe returns how the agent calls the pool's target, what the target
// has (an MCP server's own declaration, or every capability of protocol
// v1; Config.Capabilities replaces either; audit needs a log the harness
// can read) and, for an MCP server, the tools its first session listed.
func describe(pool *harness.Pool, cfg *Config, client *targets.Client) (harness.Agent, targets.Capabilities, []*mcp.Tool, error) {
	lane := pool.Lanes()[0]
	var (
		agent harness.Agent = harness.V1Agent{Client: client}
		caps                = targets.V1Capabilities(true)
	)
	var tools []*mcp.Tool
	if _, ok := cfg.Target.(*targets.HTTPService); ok {
		agent, caps = harness.HTTPAgent{Client: client, Tools: cfg.Tools}, targets.Capabilities{}
	}
	if mi, ok := lane.Target.(targets.MCPInstance); ok {
		agent, caps, tools = harness.MCPAgent{Tools: cfg.Tools}, mi.Capabilities(), mi.Tools()
		if err := listed(cfg.Tools, tools); err != nil {
			return nil, caps, nil, err
		}
	}
	if cfg.Capabilities != nil {
		caps = *cfg.Capabilities
	}
	caps.Audit = caps.Audit && lane.AuditFile != ""
	return agent, caps, tools, nil
}

// listed checks that every tool the maps name is one the server lists.
func listed(maps map[string]targets.ToolMap, tools []*mcp.Tool) error {
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	for corpusTool, m := range maps {
		if m.Name != "" && !slices.Contains(names, m.Name) {
			return fmt.Errorf("%w: the tool map of %s names %q, which the server does not list (it lists %s)",
				ErrConfig, corpusTool, m.Name, strings.Join(names, ", "))
		}
	}
	return nil
}
