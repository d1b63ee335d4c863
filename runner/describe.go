package runner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolcert/toolcert/corpus"
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
		if err := anyListed(corpus.New(cfg.Fixtures), cfg.Tools, tools); err != nil {
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

// anyListed checks that the server lists at least one of the corpus's
// tools, by its map's name or its own: a server that lists none cannot be
// certified with this corpus, and every scenario failing on "the server
// lists no tool" would say nothing about it (tried on a real server, the
// built-in corpus gave 89 such failures).
func anyListed(c *corpus.Corpus, maps map[string]targets.ToolMap, tools []*mcp.Tool) error {
	mine, err := c.Tools()
	if err != nil || len(mine) == 0 {
		return nil // the corpus's own checks say what is wrong with it
	}
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	for _, tool := range mine {
		name := tool
		if m, ok := maps[tool]; ok && m.Name != "" {
			name = m.Name
		}
		if slices.Contains(names, name) {
			return nil
		}
	}
	listing := "no tool"
	if len(names) > 0 {
		listing = strings.Join(names, ", ") // the CLI makes an error printable
	}
	return fmt.Errorf("%w: the server lists none of the corpus's tools (%s); it lists %s: map its tools to the corpus's (docs/config.md) or write a corpus for it with `toolcert discover` (docs/certify-every-tool.md)",
		ErrConfig, strings.Join(mine, ", "), listing)
}
