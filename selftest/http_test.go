package selftest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
)

// toolService serves a protocol v1 adapter as a JSON-over-HTTP tool
// service of another shape: POST /<tool> with the arguments as the body
// and the session's token as a bearer token; 200 with the data, or a
// status by code with {"error": {"code", "retryable"}}.
func toolService(v1 http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+protocol.HealthPath, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	mux.HandleFunc("POST /{tool}", func(w http.ResponseWriter, r *http.Request) {
		args, _ := io.ReadAll(io.LimitReader(r.Body, protocol.MaxInvocationBytes+1))
		body := `{"arguments":` + string(args) + `}`
		req := httptest.NewRequest(http.MethodPost, protocol.InvokePath(r.PathValue("tool")), strings.NewReader(body))
		req.Header.Set("Authorization", r.Header.Get("Authorization"))
		rec := httptest.NewRecorder()
		v1.ServeHTTP(rec, req)
		var env struct {
			RequestID string          `json:"request_id"`
			Outcome   string          `json:"outcome"`
			Data      json.RawMessage `json:"data"`
			Error     struct {
				Code      string `json:"code"`
				Retryable bool   `json:"retryable"`
			} `json:"error"`
		}
		w.Header().Set("Content-Type", "application/json")
		decodeErr := json.Unmarshal(rec.Body.Bytes(), &env)
		w.Header().Set("X-Request-Id", env.RequestID)
		if decodeErr != nil || env.Outcome != protocol.OutcomeSuccess {
			status := map[string]int{"NOT_FOUND": 404, "UPSTREAM_UNAVAILABLE": 503, "DENIED": 403}[env.Error.Code]
			if status == 0 {
				status, env.Error.Code = http.StatusBadGateway, cmpOr(env.Error.Code, string(protocol.CodeDenied))
			}
			w.WriteHeader(status)
			json.NewEncoder(w).Encode(map[string]any{"error": env.Error})
			return
		}
		w.Write(env.Data)
	})
	return mux
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// TestReferencePassesAsHTTPToolService: the reference, served as an HTTP
// tool service of its own request shape and called through tool maps
// (kind http), passes every built-in scenario that applies.
func TestReferencePassesAsHTTPToolService(t *testing.T) {
	service := targets.NewHTTPService(targets.NewInProcess("reference as an HTTP tool service", func(env targets.Env) (http.Handler, io.Closer, error) {
		a, c, err := reference.Build(env)
		if err != nil {
			return nil, nil, err
		}
		return toolService(a), c, nil
	}))
	maps := map[string]targets.ToolMap{}
	for _, tool := range reference.Tools() {
		maps[tool] = targets.ToolMap{Header: map[string]string{"Authorization": "Bearer {{token}}"},
			Code: "/error/code", Retryable: "/error/retryable", RequestIDHeader: "X-Request-Id"}
	}
	res := runWith(t, service, maps, &targets.Capabilities{Audit: true, Policy: true})
	for _, sc := range res.Scenarios {
		if sc.Status != reports.Passed && sc.Status != reports.NotApplicable {
			t.Errorf("%s: %q %s:\n%s", sc.Feature, sc.Name, sc.Status, sc.Error)
		}
	}
	if res.Summary.Leaks != 0 || res.Summary.CasesFailed != 0 || res.Summary.Passed < 80 {
		t.Errorf("summary %+v: want no leak, no failed case and at least 80 passed", res.Summary)
	}
	passesAtBothLevels(t, res)
}
