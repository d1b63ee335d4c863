package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolcert/toolcert/protocol"
)

// caller answers the tools/call requests of one tool through the adapter.
type caller struct {
	adapter http.Handler
	tool    string
	logger  *slog.Logger
}

// errInternal is what the client gets when the adapter gave no envelope:
// a fixed message, nothing of the adapter's answer.
var errInternal = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the adapter gave no valid answer"}

// call is the tool's mcp.ToolHandler: one in-process invocation of the
// adapter, its envelope translated into the result.
func (c *caller) call(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	body, err := invocationBody(req.Params.Arguments)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "arguments are not one JSON value"}
	}
	answer, err := c.invoke(ctx, body, token(req.Params.Meta))
	if err != nil {
		c.logger.Error("mcpbridge: adapter call", "tool", c.tool, "error", err)
		return nil, errInternal
	}
	res, err := result(answer)
	if err != nil {
		c.logger.Error("mcpbridge: adapter answer", "tool", c.tool, "error", err)
		return nil, errInternal
	}
	return res, nil
}

// invocationBody returns the body {"arguments": args}, args byte for byte;
// no arguments are {}. args must be exactly one JSON value, so that nothing
// can be added beside "arguments" (such as an approval_id); the go-sdk has
// already decoded it as one, so this is a guard, not a judgement.
func invocationBody(args json.RawMessage) ([]byte, error) {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if !json.Valid(args) {
		return nil, fmt.Errorf("arguments are not one JSON value")
	}
	var b bytes.Buffer
	b.WriteString(`{"arguments":`)
	b.Write(args)
	b.WriteString(`}`)
	return b.Bytes(), nil
}

// token returns the session token in meta, or "" when there is none or it
// is not a string.
func token(meta mcp.Meta) string {
	s, _ := meta[protocol.MetaToken].(string)
	return s
}

// invoke posts body to the tool's invoke path on the adapter, in process,
// with the bearer token when there is one, and returns the body it
// answered. A panic of the adapter's handler is returned as an error.
func (c *caller) invoke(ctx context.Context, body []byte, tok string) (answer []byte, err error) {
	r := httptest.NewRequestWithContext(ctx, http.MethodPost, protocol.InvokePath(c.tool), bytes.NewReader(body))
	r.Header.Set("Content-Type", protocol.ContentTypeJSON)
	if tok != "" {
		r.Header.Set("Authorization", "Bearer "+tok)
	}
	w := httptest.NewRecorder()
	defer func() {
		if p := recover(); p != nil {
			answer, err = nil, fmt.Errorf("adapter handler panicked: %v", p)
		}
	}()
	c.adapter.ServeHTTP(w, r)
	return w.Body.Bytes(), nil
}
