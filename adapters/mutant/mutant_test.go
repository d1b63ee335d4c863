package mutant

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/adapters/internal/pipeline"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/protocol"
)

var now = time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC)

func TestNames(t *testing.T) {
	want := []string{
		"additional-properties-ignored", "approval-any-session", "approval-reusable", "arguments-not-rebound",
		"arguments-unchecked", "ask-executes", "audit-counts-one-attempt", "audit-one-reason", "audit-without-body-hash",
		"case-insensitive-members", "case-insensitive-tool", "codes-collapsed", "crash-on-null", "deadline-per-attempt", "duplicate-last-wins",
		"freshness-unchecked", "grant-not-checked", "mcp-output-schema-unmet", "mcp-stdout-banner",
		"mcp-tools-change", "model-account-trusted", "no-allowlist", "no-byte-limit",
		"no-idempotency-key", "no-retry", "order-refetched", "partial-stream-acted-on", "path-injection", "reads-whole-body",
		"retries-client-errors", "retry-off-by-one", "retryable-inverted", "unbounded-retries",
		"upstream-excerpt-in-header", "upstream-headers-forwarded", "upstream-message-forwarded",
		"upstream-request-id-echoed", "validator-text-in-error",
	}
	if diff := cmp.Diff(want, Names()); diff != "" {
		t.Errorf("Names (-want +got):\n%s", diff)
	}
	for _, name := range Names() {
		if Describe(name) == "" {
			t.Errorf("Describe(%q) is empty", name)
		}
		a, err := New(name, testConfig("http://127.0.0.1:1"))
		if err != nil {
			t.Errorf("New(%q): %v", name, err)
			continue
		}
		a.Close()
	}
}

func TestNewUnknown(t *testing.T) {
	_, err := New("no-such-mutant", testConfig("http://127.0.0.1:1"))
	if !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), "duplicate-last-wins") {
		t.Errorf("New(unknown) err = %v, want ErrUnknown listing the names", err)
	}
}

// TestNewNoUpstream checks that a mutant's config error is the reference's
// sentinel: cmd/toolcert-mutant exits with its usage code on it.
func TestNewNoUpstream(t *testing.T) {
	_, err := New("no-retry", reference.Config{})
	if !errors.Is(err, reference.ErrNoUpstream) {
		t.Errorf("New without an upstream: err = %v, want reference.ErrNoUpstream", err)
	}
}

const (
	review   = `{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice"`
	reviewV2 = `{"change_id":"CR-1042","decision":"approved"`
	run      = `{"project_id":"web-app","kind":"run","run_id":"run_ABCDEFGHIJKL","state":"running","observed_at":"2026-11-29T15:59:00Z","message":"MUTANT-MARK"`
)

func TestEachMutantDiffersFromTheReference(t *testing.T) {
	reviewArgs := `{"arguments":{"change_id":"CR-1042"}}`
	runArgs := `{"arguments":{"project_id":"web-app","run_id":"run_ABCDEFGHIJKL"}}`
	tests := []struct {
		mutant  string
		tool    string
		version string // the upstream's X-Api-Version, "" for none
		args    string
		body    string // answered with 200, or 503 when empty
		mark    string // in the mutant's answer, not in the reference's; "" compares upstream requests
	}{
		{"duplicate-last-wins", "review_status", "", reviewArgs, `{"change_id":"CR-1042","decision":"rejected","decision":"approved","reviewed_by":"alice"}`, `"outcome":"success"`},
		{"additional-properties-ignored", "review_status", "", reviewArgs, review + `,"admin_override":true}`, `"outcome":"success"`},
		{"additional-properties-ignored", "review_status", "v2", reviewArgs, reviewV2 + `,"reviewed_by":{"login":"alice","admin":true}}`, `"outcome":"success"`},
		{"upstream-message-forwarded", "run_status", "", runArgs, run + `}`, "MUTANT-MARK"},
		{"freshness-unchecked", "run_status", "", runArgs, strings.Replace(run, "15:59:00Z", "01:00:00Z", 1) + `}`, `"outcome":"success"`},
		{"no-byte-limit", "review_status", "", reviewArgs, review + `,"comment":"` + strings.Repeat("x", 400) + `"}`, `"outcome":"success"`},
		{"upstream-request-id-echoed", "review_status", "", reviewArgs, review + `,"request_id":"req.MUTANT-MARK"}`, "MUTANT-MARK"},
		{"validator-text-in-error", "review_status", "", reviewArgs, review + `,"x":1}`, `"detail":`},
		{"unbounded-retries", "review_status", "", reviewArgs, "", ""},
	}
	for _, tt := range tests {
		name := tt.mutant
		if tt.version != "" {
			name += " " + tt.version
		}
		t.Run(name, func(t *testing.T) {
			refOut, refCalls := invoke(t, "", tt.tool, tt.version, tt.args, tt.body)
			mutOut, mutCalls := invoke(t, tt.mutant, tt.tool, tt.version, tt.args, tt.body)
			if tt.mark == "" {
				if refCalls != 3 || mutCalls <= refCalls {
					t.Errorf("upstream requests: reference %d, mutant %d; want 3 and more", refCalls, mutCalls)
				}
				return
			}
			if strings.Contains(refOut, tt.mark) {
				t.Errorf("reference answer carries %q: %s", tt.mark, refOut)
			}
			if !strings.Contains(mutOut, tt.mark) {
				t.Errorf("mutant answer lacks %q: %s", tt.mark, mutOut)
			}
		})
	}
}

// invoke calls tool on the reference (mutant "") or a mutant wired to an
// upstream answering body (or 503 when body is empty), with the version
// header when version is not empty, and returns the
// agent's body and the upstream requests. A 503 upstream cancels the
// agent's call at its fifth request, so unbounded retries end.
func invoke(tb testing.TB, mutant, tool, version, args, body string) (string, int64) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var calls atomic.Int64
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 5 {
			cancel()
		}
		if body == "" {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		if version != "" {
			w.Header().Set(protocol.VersionHeader, version)
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}))
	tb.Cleanup(up.Close)
	cfg := testConfig(up.URL)
	var a *pipeline.Adapter
	var err error
	if mutant == "" {
		a, err = pipeline.New(cfg, pipeline.WithAuditWriter(io.Discard))
	} else {
		a, err = build(mutant, cfg, pipeline.WithAuditWriter(io.Discard))
	}
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { a.Close() })
	rec := httptest.NewRecorder()
	req := httptest.NewRequestWithContext(ctx, "POST", "/v1/tools/"+tool+"/invoke", strings.NewReader(args))
	a.ServeHTTP(rec, req)
	return rec.Body.String(), calls.Load()
}

// testConfig returns a config with a pinned clock and a 256-byte limit.
func testConfig(upstreamURL string) pipeline.Config {
	cfg := pipeline.DefaultConfig()
	cfg.UpstreamURL = upstreamURL
	cfg.Limits.MaxBytes = 256
	cfg.Now = func() time.Time { return now }
	return cfg
}
