package pipeline

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// send acts for an allowed call of a kindSend tool t: POST t.post.path
// with the arguments as canonical JSON and Idempotency-Key key, once. Any
// 2xx status gives data {"status": t.post.status} (the answer's body is
// read within the byte limit for the audit hash, never parsed or passed
// on); anything else is UPSTREAM_UNAVAILABLE, not retryable: the call may
// have acted, and its approval is spent.
func (a *Adapter) send(ctx context.Context, t compiledTool, args map[string]any, key string, ev *protocol.AuditEvent) (map[string]any, error) {
	body, err := json.Marshal(args)
	if err != nil {
		return nil, gate.Reject(protocol.GateAuthz, protocol.ReasonArgumentsInvalid, "marshal arguments: %w", err)
	}
	header := http.Header{"Content-Type": {protocol.ContentTypeJSON}, protocol.IdempotencyKeyHeader: {key}}
	f, err := a.fetcher.Post(ctx, a.base+t.post.path, body, header)
	f.Audit(ev)
	if f.Status >= 200 && f.Status < 300 {
		if err != nil {
			ev.Detail = t.post.status + "; the answer's body is not read: " + err.Error()
		}
		return map[string]any{"status": t.post.status}, nil
	}
	r, ok := gate.AsRejection(err)
	if !ok {
		r = gate.Reject(protocol.GateTransport, protocol.ReasonUnexpectedStatus, "upstream answered %d: %v", f.Status, err)
	}
	return nil, &coded{r: r, code: protocol.CodeUpstreamUnavailable}
}
