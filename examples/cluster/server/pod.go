package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// The pinned schemas: the tool's own input and output schemas, and the
// cluster API's Pod, a copy of the corpus's upstream/v1.schema.json
// (cluster_test.go checks that the output and vendor schemas stay equal
// to the corpus's).
var (
	//go:embed schemas/get_pod.input.json
	inputSchema []byte
	//go:embed schemas/get_pod.output.json
	outputSchema []byte
	//go:embed schemas/pod.vendor.v1.json
	vendorSchema []byte
)

// podTool is get_pod built from the gate library: the arguments are
// checked before anything is sent; discovery runs once per process
// (discovery.go); the pod is fetched with a bounded number of attempts, a
// deadline and a byte limit, parsed strictly, validated against the
// pinned closed schema and bound to the arguments (its name and namespace
// must be those asked); the agent gets a new object of three values.
// Every refusal is an error result with a fixed code and nothing of the
// upstream's; the detail goes to the log on standard error.
type podTool struct {
	baseURL  string
	fetch    *gate.Fetcher
	discover *discovery
	args     *gate.Schema
	vendor   *gate.Schema
	log      *log.Logger
}

// newPodTool compiles the pinned schemas and returns the tool reading the
// cluster API at baseURL, logging refusals to logw. The caller should
// call close when finished.
func newPodTool(baseURL string, logw io.Writer) (*podTool, error) {
	args, err := gate.Compile(toolName+".input", inputSchema)
	if err != nil {
		return nil, fmt.Errorf("compile input schema: %w", err)
	}
	vendor, err := gate.Compile("pod.vendor.v1", vendorSchema)
	if err != nil {
		return nil, fmt.Errorf("compile vendor schema: %w", err)
	}
	base := strings.TrimSuffix(baseURL, "/")
	fetch := gate.NewFetcher() // the protocol's limits: 64 KiB, 3 attempts in 2 s
	return &podTool{
		baseURL:  base,
		fetch:    fetch,
		discover: &discovery{baseURL: base, fetch: fetch},
		args:     args,
		vendor:   vendor,
		log:      log.New(logw, toolName+": ", log.LstdFlags),
	}, nil
}

// close releases the fetcher's connections.
func (t *podTool) close() { t.fetch.Close() }

// register adds the tool to server with its pinned input and output
// schemas.
func (t *podTool) register(server *mcp.Server) {
	server.AddTool(&mcp.Tool{
		Name:         toolName,
		Description:  toolDescription,
		InputSchema:  json.RawMessage(inputSchema),
		OutputSchema: json.RawMessage(outputSchema),
	}, t.call)
}

// call answers one call: the pod's name, namespace and phase as
// structured content and the same JSON as text, or a fixed error result.
func (t *podTool) call(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	pod, err := t.pod(ctx, req.Params.Arguments)
	if err != nil {
		return t.failure(err), nil
	}
	return result(false, pod), nil
}

// pod runs the gates in order and returns the agent's data, or the
// *gate.Rejection of the first gate that refused.
func (t *podTool) pod(ctx context.Context, raw json.RawMessage) (map[string]any, error) {
	namespace, name, err := t.arguments(raw)
	if err != nil {
		return nil, err
	}
	if err := t.discover.ensure(ctx); err != nil { // once per process, as client-go does
		return nil, err
	}
	u := fmt.Sprintf("%s/api/v1/namespaces/%s/pods/%s", t.baseURL, url.PathEscape(namespace), url.PathEscape(name))
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
	// semantic: the pod is the one asked for, not one of another namespace
	if err := gate.Equal("/metadata/name", lookup(doc, "/metadata/name"), name); err != nil {
		return nil, err
	}
	if err := gate.Equal("/metadata/namespace", lookup(doc, "/metadata/namespace"), namespace); err != nil {
		return nil, err
	}
	// projection: a new object of the three values, nothing else
	return map[string]any{
		"name":      lookup(doc, "/metadata/name"),
		"namespace": lookup(doc, "/metadata/namespace"),
		"phase":     lookup(doc, "/status/phase"),
	}, nil
}

// lookup returns the value ptr names in doc, nil when there is none (the
// schema has made every pointer used here required).
func lookup(doc any, ptr string) any {
	v, _ := gate.Lookup(doc, ptr)
	return v
}

// arguments parses the call's arguments strictly and checks them against
// the input schema the tool declares.
func (t *podTool) arguments(raw json.RawMessage) (namespace, name string, err error) {
	tree, err := gate.ParseJSON(raw, gate.DefaultLimits())
	if err == nil {
		err = t.args.Validate(tree)
	}
	if err != nil {
		return "", "", gate.Reject(protocol.GateAuthz, protocol.ReasonArgumentsInvalid, "%w", err)
	}
	args, _ := tree.(map[string]any) // the schema says it is an object of two strings
	namespace, _ = args["namespace"].(string)
	name, _ = args["name"].(string)
	return namespace, name, nil
}

// failure logs err's detail and returns the fixed error result: a code and
// whether to retry, nothing else. A failed discovery, kept for the life
// of the process, is UPSTREAM_UNAVAILABLE and not retryable: this process
// will not ask again.
func (t *podTool) failure(err error) *mcp.CallToolResult {
	rej, ok := gate.AsRejection(err)
	if !ok { // every gate returns a *Rejection; anything else fails closed
		rej = gate.Reject(protocol.GateSchema, protocol.ReasonSchemaViolation, "unclassified: %w", err)
	}
	t.log.Printf("refused at %s (%s): %s", rej.Gate, rej.Reason, rej.Detail())
	code, retryable := rej.Code()
	if errors.Is(err, errDiscovery) {
		code, retryable = protocol.CodeUpstreamUnavailable, false
	}
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
