package mutant_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/toolcert/toolcert/adapters/mutant"
	"github.com/toolcert/toolcert/adapters/reference"
)

func ExampleNames() {
	for _, name := range mutant.Names() {
		fmt.Println(name)
	}
	// Output:
	// additional-properties-ignored
	// approval-any-session
	// approval-reusable
	// arguments-not-rebound
	// arguments-unchecked
	// ask-executes
	// audit-counts-one-attempt
	// audit-one-reason
	// audit-without-body-hash
	// case-insensitive-members
	// case-insensitive-tool
	// codes-collapsed
	// crash-on-null
	// deadline-per-attempt
	// duplicate-last-wins
	// freshness-unchecked
	// grant-not-checked
	// mcp-output-schema-unmet
	// mcp-stdout-banner
	// mcp-tools-change
	// model-account-trusted
	// no-allowlist
	// no-byte-limit
	// no-idempotency-key
	// no-retry
	// order-refetched
	// partial-stream-acted-on
	// path-injection
	// reads-whole-body
	// retries-client-errors
	// retry-off-by-one
	// retryable-inverted
	// unbounded-retries
	// upstream-excerpt-in-header
	// upstream-headers-forwarded
	// upstream-message-forwarded
	// upstream-request-id-echoed
	// validator-text-in-error
}

func ExampleDescribe() {
	fmt.Println(mutant.Describe("duplicate-last-wins"))
	// Output:
	// the parser accepts duplicate member names, the last one wins
}

func ExampleNew() {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"change_id":"CR-1042","decision":"rejected","reviewed_by":"alice","decision":"approved"}`)
	}))
	defer upstream.Close()
	cfg := reference.DefaultConfig()
	cfg.UpstreamURL = upstream.URL
	cfg.AuditFile = os.DevNull // the example keeps no audit log

	a, err := mutant.New("duplicate-last-wins", cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer a.Close()
	rec := httptest.NewRecorder()
	a.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/tools/review_status/invoke",
		strings.NewReader(`{"arguments":{"change_id":"CR-1042"}}`)))
	body := rec.Body.String()
	fmt.Println(body[strings.Index(body, `"outcome"`):])

	_, err = mutant.New("no-such-mutant", cfg)
	fmt.Println(err != nil)
	// Output:
	// "outcome":"success","data":{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice"}}
	// true
}

func ExampleInProcess() {
	t, err := mutant.InProcess("no-byte-limit")
	fmt.Println(t, err)
	// Output:
	// in-process mutant no-byte-limit <nil>
}
