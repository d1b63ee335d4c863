package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/url"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// The pinned schemas: the tool's own input and output schemas, and the
// vendor's answer, a copy of the corpus's upstream/v1.schema.json
// (reviews_test.go checks that the output and vendor schemas stay equal to
// the corpus's).
var (
	//go:embed schemas/list_pull_request_reviews.input.json
	inputSchema []byte
	//go:embed schemas/list_pull_request_reviews.output.json
	outputSchema []byte
	//go:embed schemas/reviews.vendor.v1.json
	vendorSchema []byte
)

// fixedTool is list_pull_request_reviews built from the gate library: the
// arguments are checked before anything is sent; the answer is fetched
// with a bounded number of attempts, a deadline and a byte limit, parsed
// strictly (a duplicate member, a truncated document, NaN are refused) and
// validated against the pinned, closed schema (null is not a list). Every
// refusal is an error result with a fixed code and nothing of the
// upstream's; the detail goes to the log on standard error.
type fixedTool struct {
	baseURL string
	fetch   *gate.Fetcher
	args    *gate.Schema
	vendor  *gate.Schema
	log     *log.Logger
}

// newFixedTool compiles the pinned schemas and returns the tool reading
// GitHub at baseURL, logging refusals to logw. The caller should call
// close when finished.
func newFixedTool(baseURL string, logw io.Writer) (*fixedTool, error) {
	args, err := gate.Compile(toolName+".input", inputSchema)
	if err != nil {
		return nil, fmt.Errorf("compile input schema: %w", err)
	}
	vendor, err := gate.Compile("reviews.vendor.v1", vendorSchema)
	if err != nil {
		return nil, fmt.Errorf("compile vendor schema: %w", err)
	}
	return &fixedTool{
		baseURL: strings.TrimSuffix(baseURL, "/"),
		fetch:   gate.NewFetcher(), // the protocol's limits: 64 KiB, 3 attempts in 2 s
		args:    args,
		vendor:  vendor,
		log:     log.New(logw, toolName+": ", log.LstdFlags),
	}, nil
}

// close releases the fetcher's connections.
func (t *fixedTool) close() { t.fetch.Close() }

// register adds the tool to server with its pinned input and output
// schemas.
func (t *fixedTool) register(server *mcp.Server) {
	server.AddTool(&mcp.Tool{
		Name:         toolName,
		Description:  toolDescription,
		InputSchema:  json.RawMessage(inputSchema),
		OutputSchema: json.RawMessage(outputSchema),
	}, t.call)
}

// call answers one call: the reviews as structured content and the same
// JSON as text, or a fixed error result.
func (t *fixedTool) call(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	reviews, err := t.reviews(ctx, req.Params.Arguments)
	if err != nil {
		return t.failure(err), nil
	}
	return result(false, map[string]any{"reviews": reviews}), nil
}

// reviews runs the gates in order and returns the vendor's list, or the
// *gate.Rejection of the first gate that refused.
func (t *fixedTool) reviews(ctx context.Context, raw json.RawMessage) (any, error) {
	owner, repo, number, err := t.arguments(raw)
	if err != nil {
		return nil, err
	}
	u := fmt.Sprintf("%s/repos/%s/%s/pulls/%d/reviews", t.baseURL, url.PathEscape(owner), url.PathEscape(repo), number)
	fetched, err := t.fetch.Get(ctx, u) // transport: attempts, deadline, byte limit; 200 only
	if err != nil {
		return nil, err
	}
	if err := gate.CheckContentType(fetched.Header, protocol.ContentTypeJSON); err != nil {
		return nil, err
	}
	doc, err := gate.ParseJSON(fetched.Raw, gate.DefaultLimits()) // parse: strict
	if err != nil {
		return nil, err
	}
	if err := t.vendor.Validate(doc); err != nil { // schema: pinned and closed
		return nil, err
	}
	return doc, nil
}

// arguments parses the call's arguments strictly and checks them against
// the input schema the tool declares.
func (t *fixedTool) arguments(raw json.RawMessage) (owner, repo string, number int64, err error) {
	tree, err := gate.ParseJSON(raw, gate.DefaultLimits())
	if err == nil {
		err = t.args.Validate(tree)
	}
	if err != nil {
		return "", "", 0, gate.Reject(protocol.GateAuthz, protocol.ReasonArgumentsInvalid, "%w", err)
	}
	args, _ := tree.(map[string]any) // the schema says it is an object
	owner, _ = args["owner"].(string)
	repo, _ = args["repo"].(string)
	n, _ := args["pull_number"].(json.Number)
	if number, err = strconv.ParseInt(n.String(), 10, 64); err != nil { // 1e3 is an integer to JSON Schema
		return "", "", 0, gate.Reject(protocol.GateAuthz, protocol.ReasonArgumentsInvalid, "pull_number: %w", err)
	}
	return owner, repo, number, nil
}

// failure logs err's detail and returns the fixed error result: a code and
// whether to retry, nothing else.
func (t *fixedTool) failure(err error) *mcp.CallToolResult {
	rej, ok := gate.AsRejection(err)
	if !ok { // every gate returns a *Rejection; anything else fails closed
		rej = gate.Reject(protocol.GateSchema, protocol.ReasonSchemaViolation, "unclassified: %w", err)
	}
	t.log.Printf("refused at %s (%s): %s", rej.Gate, rej.Reason, rej.Detail())
	code, retryable := rej.Code()
	return result(true, map[string]any{"error": map[string]any{"code": code, "retryable": retryable}})
}

// result returns a result whose structured content is v, with the same
// JSON in one text block.
func result(isError bool, v map[string]any) *mcp.CallToolResult {
	text, _ := json.Marshal(v) // maps of parsed JSON values always marshal
	return &mcp.CallToolResult{
		IsError:           isError,
		StructuredContent: v,
		Content:           []mcp.Content{&mcp.TextContent{Text: string(text)}},
	}
}
