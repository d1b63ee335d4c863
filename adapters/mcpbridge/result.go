package mcpbridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolcert/toolcert/protocol"
)

// envelope is what the bridge reads of the adapter's answer; every other
// member is ignored, so none can reach the client.
type envelope struct {
	RequestID string         `json:"request_id"`
	Outcome   string         `json:"outcome"`
	Data      jsontext.Value `json:"data"`
	Error     *failure       `json:"error"`
}

// failure is the error object of a failure envelope, and the whole of the
// structuredContent of a failed call.
type failure struct {
	Code      protocol.Code `json:"code"`
	Retryable *bool         `json:"retryable"`
}

// errEnvelope is wrapped by every error of result: the adapter's answer is
// not a valid envelope.
var errEnvelope = errors.New("not a valid envelope")

// result returns the MCP result of the adapter's answer: see [New]. It
// reads the answer strictly (no duplicate names, valid UTF-8, names in
// their exact case) and requires a valid request id, a known outcome, a
// success's data to be an object and a failure's code to be one of
// protocol.Codes.
func result(answer []byte) (*mcp.CallToolResult, error) {
	var env envelope
	if err := jsonv2.Unmarshal(answer, &env); err != nil {
		return nil, fmt.Errorf("%w: %w", errEnvelope, err)
	}
	if !protocol.ValidRequestID(env.RequestID) {
		return nil, fmt.Errorf("%w: request_id %.80q", errEnvelope, env.RequestID)
	}
	switch env.Outcome {
	case protocol.OutcomeSuccess:
		if env.Data.Kind() != '{' {
			return nil, fmt.Errorf("%w: success without a data object", errEnvelope)
		}
		return answerWith(env.RequestID, false, json.RawMessage(env.Data)), nil
	case protocol.OutcomeFailure:
		if env.Error == nil || env.Error.Retryable == nil || !slices.Contains(protocol.Codes(), env.Error.Code) {
			return nil, fmt.Errorf("%w: failure without a known code and a retryable flag", errEnvelope)
		}
		return failed(env.RequestID, env.Error.Code, *env.Error.Retryable), nil
	case protocol.OutcomePendingApproval:
		// MCP has no endpoint for the human's approval: the call fails.
		return failed(env.RequestID, protocol.CodeDenied, false), nil
	}
	return nil, fmt.Errorf("%w: outcome %.40q", errEnvelope, env.Outcome)
}

// failed returns the result of a failed call: {"error": {code, retryable}}.
func failed(requestID string, code protocol.Code, retryable bool) *mcp.CallToolResult {
	b, _ := json.Marshal(struct { // a string and a bool always marshal
		Error failure `json:"error"`
	}{failure{code, &retryable}})
	return answerWith(requestID, true, b)
}

// answerWith returns the result carrying content both as structuredContent
// and as the JSON of one text block, and the request id in _meta.
func answerWith(requestID string, isError bool, content json.RawMessage) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Meta:              mcp.Meta{protocol.MetaRequestID: requestID},
		Content:           []mcp.Content{&mcp.TextContent{Text: string(content)}},
		StructuredContent: content,
		IsError:           isError,
	}
}
