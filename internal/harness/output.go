package harness

import (
	"net/http"
	"sort"
	"strings"
	"time"

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
	// MCP is set for an MCP server's answer; Result is then nil.
	MCP *MCPAnswer
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
	return Output{Parts: parts, Result: out.Body, ResultWhere: PartBody, Truncated: out.Truncated, Elapsed: out.Elapsed}
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
