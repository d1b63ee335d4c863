package pipeline

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/toolcert/toolcert/gate"
)

// maxApprovalBody bounds the body of an approval answer.
const maxApprovalBody = 1 << 10

// handleApproval records a human's answer to a pending approval:
// POST /v1/approvals/{id} with exactly {"approve": true|false}. It answers
// 200 {"approval_id", "status": "approved"|"refused"}, 404 for an unknown
// id, 409 for one already decided or expired, 400 for any other body. The
// error bodies are fixed and never echo the request.
func (a *Adapter) handleApproval(w http.ResponseWriter, r *http.Request) {
	setBodyDeadline(w)
	approve, err := readApprove(r)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, []byte(`{"error":"invalid_body"}`))
		return
	}
	id := r.PathValue("id")
	status, err := a.approvals.Decide(id, approve)
	switch {
	case errors.Is(err, gate.ErrApprovalDecided):
		writeJSON(w, http.StatusConflict, []byte(`{"error":"approval_decided"}`))
	case errors.Is(err, gate.ErrApprovalExpired):
		writeJSON(w, http.StatusConflict, []byte(`{"error":"approval_expired"}`))
	case err != nil:
		writeJSON(w, http.StatusNotFound, []byte(`{"error":"unknown_approval"}`))
	default:
		b, _ := json.Marshal(struct {
			ApprovalID string `json:"approval_id"`
			Status     string `json:"status"`
		}{id, status}) // id is one the store issued
		writeJSON(w, http.StatusOK, b)
	}
}

// readApprove reads the strict body {"approve": <boolean>}.
func readApprove(r *http.Request) (bool, error) {
	raw, err := gate.ReadLimited(r.Body, maxApprovalBody)
	if err != nil {
		return false, err
	}
	v, err := gate.ParseJSON(raw, gate.DefaultLimits())
	if err != nil {
		return false, err
	}
	body, ok := v.(map[string]any)
	approve, isBool := body["approve"].(bool)
	if !ok || len(body) != 1 || !isBool {
		return false, errors.New(`body is not {"approve": true|false}`)
	}
	return approve, nil
}
