package main

import (
	"context"
	_ "embed"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// toolName is the one tool this adapter serves.
const toolName = "ticket_status"

// The pinned schemas: copies of the corpus's tool.json "arguments" and
// upstream/v1.schema.json (ticket_test.go checks that they stay equal).
var (
	//go:embed schemas/ticket_status.args.json
	argsSchema []byte
	//go:embed schemas/ticket_status.vendor.v1.json
	vendorSchemaV1 []byte
)

// ticketTool is ticket_status: GET /tickets/{ticket_id} at the vendor,
// {ticket_id, status, assignee, updated_at} to the agent.
type ticketTool struct {
	cfg    config
	fetch  *gate.Fetcher
	args   *gate.Schema
	vendor *gate.Schema
}

// newTicketTool compiles the pinned schemas.
func newTicketTool(cfg config, fetch *gate.Fetcher) (*ticketTool, error) {
	args, err := gate.Compile(toolName+".args", argsSchema)
	if err != nil {
		return nil, fmt.Errorf("compile arguments schema: %w", err)
	}
	vendor, err := gate.Compile(toolName+".vendor.v1", vendorSchemaV1)
	if err != nil {
		return nil, fmt.Errorf("compile vendor schema: %w", err)
	}
	return &ticketTool{cfg: cfg, fetch: fetch, args: args, vendor: vendor}, nil
}

// call runs one agent call through the gates in order and returns the
// agent's data, or the *gate.Rejection of the first gate that refused.
// It records what it sent and read in ev.
func (t *ticketTool) call(ctx context.Context, args map[string]any, ev *protocol.AuditEvent) (map[string]any, error) {
	// authz: the arguments, before anything reaches the vendor.
	if err := t.args.Validate(args); err != nil {
		return nil, gate.Reject(protocol.GateAuthz, protocol.ReasonArgumentsInvalid, "%w", err)
	}
	ticketID, _ := args["ticket_id"].(string)

	// transport: bounded attempts, bytes and time.
	u := strings.TrimSuffix(t.cfg.upstreamURL, "/") + "/tickets/" + url.PathEscape(ticketID)
	fetched, err := t.fetch.Get(ctx, u)
	fetched.Audit(ev)
	if err != nil {
		return nil, err
	}

	// schema: the version we pinned, then parse: strictly.
	if err := checkVersion(fetched.Header); err != nil {
		return nil, err
	}
	if err := gate.CheckContentType(fetched.Header, protocol.ContentTypeJSON); err != nil {
		return nil, err
	}
	tree, err := gate.ParseJSON(fetched.Raw, t.cfg.limits)
	if err != nil {
		return nil, err
	}
	if err := t.vendor.Validate(tree); err != nil {
		return nil, err
	}

	// semantic: about the ticket asked for, and recent.
	ticket, _ := tree.(map[string]any) // the schema says it is an object
	if err := gate.Equal("ticket_id", ticket["ticket_id"], ticketID); err != nil {
		return nil, err
	}
	updated, _ := ticket["updated_at"].(string)
	if err := gate.Fresh(updated, time.Now(), t.cfg.freshness, t.cfg.futureSkew); err != nil {
		return nil, err
	}
	return t.project(ticket), nil
}

// project builds a new object with the agent's fields only. The vendor's
// body, url, labels and requester never reach the agent.
func (t *ticketTool) project(ticket map[string]any) map[string]any {
	data := map[string]any{
		"ticket_id":  ticket["ticket_id"],
		"status":     ticket["status"],
		"assignee":   ticket["assignee"],
		"updated_at": ticket["updated_at"],
	}
	if body, ok := ticket["body"]; ok && t.cfg.forwardBody {
		data["body"] = body // the deliberate bug of --forward-body
	}
	return data
}

// checkVersion accepts an answer without X-Api-Version or with exactly one
// "v1": the only vendor version this adapter pins.
func checkVersion(h http.Header) error {
	vs := h.Values(protocol.VersionHeader)
	if len(vs) == 0 || (len(vs) == 1 && vs[0] == protocol.DefaultUpstreamVersion) {
		return nil
	}
	return gate.Reject(protocol.GateSchema, protocol.ReasonUnsupportedVersion, "X-Api-Version %q", vs)
}
