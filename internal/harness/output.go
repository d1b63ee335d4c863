package harness

import (
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/toolcert/toolcert/canary"
	"github.com/toolcert/toolcert/targets"
)

// Output is everything the agent saw of one call, as named parts: for a
// target of protocol v1, the status line, every header and trailer, and
// the body. The leak scan searches every part; the outcome checks read the
// result part.
type Output struct {
	// Parts are the agent-visible parts, in a fixed order.
	Parts []canary.Part
	// Result is the data of the part that carries the tool's result (for
	// protocol v1 the body); ResultWhere names that part.
	Result      []byte
	ResultWhere string
	// Truncated reports that the result was longer than the harness reads;
	// Result holds its first bytes.
	Truncated bool
	// Elapsed is the time from sending the call to the end of reading.
	Elapsed time.Duration
	// Answer is set for the answer of a target that does not speak
	// protocol v1 (an MCP server, an HTTP tool service), read by its tool
	// map; Result is then nil.
	Answer *Answer
	// HTTP is the HTTP answer as the client read it, for evidence: its
	// status, headers and when each part arrived, also of a call that
	// timed out. Nil for an MCP server.
	HTTP *targets.Output
}

// The names of the parts of an HTTP answer.
const (
	PartStatusLine = "status line"
	PartBody       = "body"
)

// HTTPOutput splits an HTTP answer into its parts: the status line, every
// header and trailer (one part each, name and values), the body (the
// result part).
func HTTPOutput(out targets.Output) Output {
	parts := []canary.Part{{Where: PartStatusLine, Data: []byte(out.StatusLine)}}
	parts = append(parts, headerParts("header", out.Header)...)
	parts = append(parts, headerParts("trailer", out.Trailer)...)
	parts = append(parts, canary.Part{Where: PartBody, Data: out.Body})
	return Output{Parts: parts, Result: out.Body, ResultWhere: PartBody, Truncated: out.Truncated, Elapsed: out.Elapsed, HTTP: &out}
}

// headerParts returns one part per header name, sorted by name.
func headerParts(kind string, h http.Header) []canary.Part {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	sort.Strings(names)
	parts := make([]canary.Part, 0, len(names))
	for _, name := range names {
		line := name + ": " + strings.Join(h[name], ", ")
		parts = append(parts, canary.Part{Where: kind + " " + name, Data: []byte(line)})
	}
	return parts
}

// Answer is the answer of a target that does not speak protocol v1, as
// the steps judge it by the tool's map: an MCP result, or an HTTP tool
// service's answer.
type Answer struct {
	// Failed is set when an MCP result has isError true or the server
	// answered a JSON-RPC error; for an HTTP tool service, when the tool
	// map's failure status or pointer says so.
	Failed bool
	// RPCError is the JSON-RPC error, or nil.
	RPCError *jsonrpc.Error
	// Structured is an MCP result's structured content as JSON, or an
	// HTTP answer's body when it is JSON; nil when absent.
	Structured []byte
	// Texts are the text of every text content block of an MCP result,
	// in order ("" for a block of another kind), or an HTTP answer's body.
	Texts []string
	// RequestID is the result's _meta request id, "" when absent.
	RequestID string
	// Answered is false when no result or error arrived.
	Answered bool
}
