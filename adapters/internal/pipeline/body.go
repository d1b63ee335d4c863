package pipeline

import (
	"net/http"
	"time"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// bodyTimeout bounds the wait for the agent's request body.
const bodyTimeout = 5 * time.Second

// invocation is the agent's request body: {"arguments": {...}}, optionally
// with "approval_id".
type invocation struct {
	args        map[string]any
	approvalID  string
	hasApproval bool
	// repaired is set when WithBodyRepair made the body whole: the agent
	// has typically hung up, and the careless adapter acts all the same.
	repaired bool
}

// readInvocation reads the whole body, bounded in bytes, and parses it
// strictly. A body that ends early (the client closed the connection
// before the Content-Length or the last chunk, or the JSON is cut short),
// is not strict JSON, or is not exactly {"arguments": {...}} or
// {"arguments": {...}, "approval_id": "..."} is a DENIED arguments_invalid
// rejection: nothing of it is acted on.
func (a *Adapter) readInvocation(r *http.Request) (invocation, error) {
	raw, err := gate.ReadLimited(r.Body, a.maxInput)
	if _, limit := gate.AsRejection(err); err != nil && (limit || a.s.repairBody == nil) {
		return invocation{}, denied("request body: %w", err)
	}
	repaired := err != nil
	if repaired {
		raw = a.s.repairBody(raw)
	}
	v, err := gate.ParseJSON(raw, gate.DefaultLimits())
	if rej, ok := gate.AsRejection(err); ok && rej.Reason == protocol.ReasonTruncated && a.s.repairBody != nil {
		v, err = gate.ParseJSON(a.s.repairBody(raw), gate.DefaultLimits())
		repaired = true
	}
	if err != nil {
		return invocation{}, denied("request body: %w", err)
	}
	inv, err := invocationOf(v)
	inv.repaired = repaired
	return inv, err
}

// invocationOf checks the shape of the parsed body.
func invocationOf(v any) (invocation, error) {
	body, ok := v.(map[string]any)
	if !ok {
		return invocation{}, denied("request body is not an object")
	}
	var inv invocation
	inv.args, ok = body["arguments"].(map[string]any)
	if !ok {
		return invocation{}, denied("request body has no \"arguments\" object")
	}
	id, has := body["approval_id"]
	if has {
		if inv.approvalID, ok = id.(string); !ok {
			return invocation{}, denied("approval_id is not a string")
		}
		inv.hasApproval = true
	}
	want := 1
	if has {
		want = 2
	}
	if len(body) != want {
		return invocation{}, denied("request body has members besides \"arguments\" and \"approval_id\"")
	}
	return inv, nil
}

// setBodyDeadline bounds the time the agent may take to send its body; a
// writer that cannot set it (a test recorder) is left as it is.
func setBodyDeadline(w http.ResponseWriter) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(bodyTimeout))
}
