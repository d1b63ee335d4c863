package harness

import (
	"context"
	"fmt"

	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/targets"
)

// Agent makes the agent's calls on a lane's target, in the target's own
// protocol: V1Agent for protocol v1 adapters, MCPAgent for MCP servers.
type Agent interface {
	// Call calls tool, a corpus tool, with args (the corpus's arguments, a
	// JSON object) in the session of token, and returns what the agent
	// saw. The error wraps targets.ErrTimeout when ctx ended first.
	Call(ctx context.Context, inst targets.Instance, tool string, args []byte, token string) (Output, error)
	// Protocol names the protocol: "v1" or "mcp".
	Protocol() string
}

// V1Agent calls protocol v1 adapters: POST /v1/tools/{tool}/invoke.
type V1Agent struct {
	Client *targets.Client
}

var _ Agent = V1Agent{}

// Call posts the invocation and splits the HTTP answer into its parts.
func (a V1Agent) Call(ctx context.Context, inst targets.Instance, tool string, args []byte, token string) (Output, error) {
	out, err := a.Client.Invoke(ctx, inst.URL(), tool, args, token)
	return HTTPOutput(out), err
}

// Protocol returns "v1".
func (V1Agent) Protocol() string { return "v1" }

// ProtocolV1 and ProtocolMCP are the values of Agent.Protocol.
const (
	ProtocolV1  = "v1"
	ProtocolMCP = "mcp"
)

// errNotMCP is returned when an MCP agent meets another kind of instance.
func errNotMCP(inst targets.Instance) error {
	return fmt.Errorf("the target's instance %T does not speak MCP", inst)
}

// TokenMeta is the _meta of an MCP call in the session of token.
func TokenMeta(token string) map[string]any {
	if token == "" {
		return nil
	}
	return map[string]any{protocol.MetaToken: token}
}
