package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcert/toolcert/canary"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/targets"
)

// MCPAgent calls MCP servers: tools/call of the tool each corpus tool maps
// to (targets.ToolMap; a tool without an entry maps to itself).
type MCPAgent struct {
	Tools map[string]targets.ToolMap
}

var _ Agent = MCPAgent{}

// Protocol returns "mcp".
func (MCPAgent) Protocol() string { return ProtocolMCP }

// Map returns the map of a corpus tool with its defaults filled in: the
// tool's own name, and a failure's code and retryable flag at
// /error/code and /error/retryable of its structured content (checked
// only where they are there).
func (a MCPAgent) Map(tool string) targets.ToolMap {
	m := a.Tools[tool]
	if m.Name == "" {
		m.Name = tool
	}
	if m.Code == "" && m.Retryable == "" {
		m.Code, m.Retryable = targets.DefaultCodePointer, targets.DefaultRetryablePointer
	}
	return m
}

// Call renders the arguments, calls the tool with the token in _meta, and
// returns everything the client received while the call ran.
func (a MCPAgent) Call(ctx context.Context, inst targets.Instance, tool string, args []byte, token string) (Output, error) {
	mi, ok := inst.(targets.MCPInstance)
	if !ok {
		return Output{}, errNotMCP(inst)
	}
	m := a.Map(tool)
	targs, err := m.RenderArguments(args)
	if err != nil {
		return Output{}, fmt.Errorf("tool map of %s: %w", tool, err)
	}
	call, err := mi.CallTool(ctx, m.Name, targs, TokenMeta(token))
	if call == nil {
		return Output{}, err
	}
	return MCPOutput(call), err
}

// MCPOutput splits an MCP call into its agent-visible parts and its answer.
func MCPOutput(call *targets.MCPCall) Output {
	out := Output{Elapsed: call.Elapsed, Truncated: call.TrafficTruncated, Answer: &Answer{}}
	if r := call.Result; r != nil {
		out.Answer.Answered, out.Answer.Failed = true, r.IsError
		out.Parts, out.Answer.Texts = contentParts(r.Content)
		if r.StructuredContent != nil {
			out.Answer.Structured, _ = json.Marshal(r.StructuredContent)
			out.Parts = append(out.Parts, canary.Part{Where: "structuredContent", Data: out.Answer.Structured})
		}
		if len(r.Meta) > 0 {
			meta, _ := json.Marshal(r.Meta)
			out.Parts = append(out.Parts, canary.Part{Where: "result _meta", Data: meta})
			out.Answer.RequestID, _ = r.Meta[protocol.MetaRequestID].(string)
		}
	}
	if e := call.RPCError; e != nil {
		out.Answer.Answered, out.Answer.Failed, out.Answer.RPCError = true, true, e
		out.Parts = append(out.Parts, canary.Part{Where: "JSON-RPC error", Data: fmt.Appendf(nil, "%d %s %s", e.Code, e.Message, e.Data)})
	}
	out.Parts = append(out.Parts, trafficParts(call.Traffic)...)
	return out
}

// contentParts returns a part per content block and the blocks' texts.
func contentParts(blocks []mcp.Content) ([]canary.Part, []string) {
	parts := make([]canary.Part, 0, len(blocks))
	texts := make([]string, len(blocks))
	for i, c := range blocks {
		where := fmt.Sprintf("content[%d]", i)
		switch b := c.(type) {
		case *mcp.TextContent:
			texts[i] = b.Text
			parts = append(parts, canary.Part{Where: where + " text", Data: []byte(b.Text)})
		default:
			raw, _ := json.Marshal(c)
			parts = append(parts, canary.Part{Where: where, Data: raw})
		}
	}
	return parts, texts
}

// trafficParts returns a part per message the server sent during the call
// other than the call's own answer (notifications, log messages, requests,
// stdout noise), which the parts above already hold.
func trafficParts(traffic []byte) []canary.Part {
	var parts []canary.Part
	for i, line := range bytes.Split(bytes.TrimSuffix(traffic, []byte("\n")), []byte("\n")) {
		if len(line) == 0 || isResponse(line) {
			continue
		}
		parts = append(parts, canary.Part{Where: fmt.Sprintf("server message %d", i+1), Data: line})
	}
	return parts
}

// isResponse reports whether line is a JSON-RPC response (it has an id and
// a result or an error).
func isResponse(line []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil {
		return false
	}
	_, id := m["id"]
	_, res := m["result"]
	_, rerr := m["error"]
	return id && (res || rerr) && !strings.HasPrefix(strings.TrimSpace(string(m["method"])), `"`)
}
