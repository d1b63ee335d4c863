package corpus_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/corpus"
)

// ignoreDetail leaves the operator detail out of a comparison.
var ignoreDetail = cmpopts.IgnoreFields(corpus.Outcome{}, "Detail")

// loadTool loads a tool of the built-in corpus.
func loadTool(tb testing.TB, c *corpus.Corpus, name string) *corpus.Tool {
	tb.Helper()
	t, err := c.Tool(name)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// loadBody loads and renders a body file of the built-in corpus.
func loadBody(tb testing.TB, c *corpus.Corpus, tool, file string) []byte {
	tb.Helper()
	raw, err := c.Body(tool, file)
	if err != nil {
		tb.Fatal(err)
	}
	return render(tb, raw)
}

func TestEvaluateBuiltinCorpus(t *testing.T) {
	c := corpus.New(toolcert.Fixtures())
	tools, err := c.Tools()
	if err != nil || len(tools) == 0 {
		t.Fatalf("Tools() = %v, %v", tools, err)
	}
	for _, name := range tools {
		tool := loadTool(t, c, name)
		cs, err := c.Cases(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range cs.Accepted {
			for _, v := range a.Versions {
				t.Run(fmt.Sprintf("%s/accepted/%s/%s", name, a.ID, v), func(t *testing.T) {
					body := loadBody(t, c, name, a.Body)
					got, err := c.Evaluate(tool, v, corpus.Answer{Status: 200, ContentType: tool.ContentType, Body: body}, a.Arguments, testNow, corpus.Limits{})
					if err != nil {
						t.Fatal(err)
					}
					want := corpus.Outcome{Accepted: true, Data: parseObject(t, a.Expect), Gate: "none", Reason: "ok"}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("Evaluate mismatch (-want +got):\n%s", diff)
					}
				})
			}
		}
		for _, r := range cs.Rejects {
			for _, v := range r.Versions {
				t.Run(fmt.Sprintf("%s/rejects/%s/%s", name, r.ID, v), func(t *testing.T) {
					body := loadBody(t, c, name, r.Body)
					got, err := c.Evaluate(tool, v, corpus.Answer{Status: 200, ContentType: tool.ContentType, Body: body}, r.Arguments, testNow, corpus.Limits{})
					if err != nil {
						t.Fatal(err)
					}
					want := corpus.Outcome{Code: "INVALID_RESPONSE", Gate: r.Gate, Reason: r.Reason}
					if diff := cmp.Diff(want, got, ignoreDetail); diff != "" {
						t.Errorf("Evaluate mismatch for %s (-want +got):\n%s", r.Why, diff)
					}
					if got.Detail == "" || bytes.Contains([]byte(got.Detail), []byte("{{")) {
						t.Errorf("Detail = %q, want the operator detail", got.Detail)
					}
				})
			}
		}
	}
}

func TestEvaluateCrafted(t *testing.T) {
	c := corpus.New(toolcert.Fixtures())
	review := loadBody(t, c, "review_status", "accepted/approved.json")
	run := loadBody(t, c, "run_status", "accepted/failed_vendor.json")
	reviewArgs := map[string]string{"change_id": "CR-1042"}
	runArgs := map[string]string{"project_id": "bluebird", "run_id": "run_7Hq2LmX9pQ4s"}
	reviewData := map[string]any{"change_id": "CR-1042", "decision": "approved", "reviewed_by": "alice@example.com"}
	accepted := func(data map[string]any) corpus.Outcome {
		return corpus.Outcome{Accepted: true, Data: data, Gate: "none", Reason: "ok"}
	}
	invalid := func(gate, reason string) corpus.Outcome {
		return corpus.Outcome{Code: "INVALID_RESPONSE", Gate: gate, Reason: reason}
	}
	huge := bytes.Repeat([]byte("x"), 70000)
	tests := []struct {
		name   string
		tool   string
		edit   func(*corpus.Tool) // changes the loaded binding, or nil
		answer corpus.Answer
		args   map[string]string
		lim    corpus.Limits
		want   corpus.Outcome
	}{
		{name: "404 is NOT_FOUND", tool: "review_status", answer: corpus.Answer{Status: 404, ContentType: "text/html", Body: []byte("<h1>no</h1>")}, args: reviewArgs,
			want: corpus.Outcome{Code: "NOT_FOUND", Gate: "transport", Reason: "status_404"}},
		{name: "a huge 404 page is still NOT_FOUND", tool: "review_status", answer: corpus.Answer{Status: 404, Body: huge}, args: reviewArgs,
			want: corpus.Outcome{Code: "NOT_FOUND", Gate: "transport", Reason: "status_404"}},
		{name: "503 is retryable", tool: "review_status", answer: corpus.Answer{Status: 503, ContentType: "application/json", Body: review}, args: reviewArgs,
			want: corpus.Outcome{Code: "UPSTREAM_UNAVAILABLE", Retryable: true, Gate: "transport", Reason: "status_5xx"}},
		{name: "429 is retryable", tool: "review_status", answer: corpus.Answer{Status: 429}, args: reviewArgs,
			want: corpus.Outcome{Code: "UPSTREAM_UNAVAILABLE", Retryable: true, Gate: "transport", Reason: "status_429"}},
		{name: "another 4xx is not retryable", tool: "review_status", answer: corpus.Answer{Status: 403}, args: reviewArgs,
			want: corpus.Outcome{Code: "UPSTREAM_UNAVAILABLE", Gate: "transport", Reason: "status_4xx"}},
		{name: "a redirect is an unexpected status", tool: "review_status", answer: corpus.Answer{Status: 302, ContentType: "application/json", Body: review}, args: reviewArgs,
			want: invalid("transport", "unexpected_status")},
		{name: "one byte past the limit", tool: "review_status", answer: corpus.Answer{Status: 200, ContentType: "application/json", Body: review}, args: reviewArgs,
			lim: corpus.Limits{MaxBytes: int64(len(review)) - 1}, want: invalid("transport", "byte_limit")},
		{name: "exactly the limit", tool: "review_status", answer: corpus.Answer{Status: 200, ContentType: "application/json", Body: review}, args: reviewArgs,
			lim: corpus.Limits{MaxBytes: int64(len(review))}, want: accepted(reviewData)},
		{name: "byte limit before content type", tool: "review_status", answer: corpus.Answer{Status: 200, ContentType: "text/html", Body: huge}, args: reviewArgs,
			want: invalid("transport", "byte_limit")},
		{name: "charset utf-8 is allowed", tool: "review_status", answer: corpus.Answer{Status: 200, ContentType: "application/json; charset=UTF-8", Body: review}, args: reviewArgs,
			want: accepted(reviewData)},
		{name: "html is not the tool's content type", tool: "review_status", answer: corpus.Answer{Status: 200, ContentType: "text/html", Body: review}, args: reviewArgs,
			want: invalid("parse", "content_type")},
		{name: "another charset", tool: "review_status", answer: corpus.Answer{Status: 200, ContentType: "application/json; charset=latin1", Body: review}, args: reviewArgs,
			want: invalid("parse", "content_type")},
		{name: "no content type", tool: "review_status", answer: corpus.Answer{Status: 200, Body: review}, args: reviewArgs,
			want: invalid("parse", "content_type")},
		{name: "a text tool answering JSON", tool: "host_uptime", answer: corpus.Answer{Status: 200, ContentType: "application/json", Body: []byte(`{"host":"web-1"}`)}, args: map[string]string{"host": "web-1"},
			want: invalid("parse", "content_type")},
		{name: "an empty body is truncated", tool: "review_status", answer: corpus.Answer{Status: 200, ContentType: "application/json"}, args: reviewArgs,
			want: invalid("parse", "truncated")},
		{name: "one level past the depth limit", tool: "run_status", answer: corpus.Answer{Status: 200, ContentType: "application/json", Body: run}, args: runArgs,
			lim: corpus.Limits{MaxDepth: 1}, want: invalid("parse", "depth_limit")},
		{name: "a timestamp past the skew", tool: "run_status", answer: corpus.Answer{Status: 200, ContentType: "application/json",
			Body: render(t, []byte(`{"project_id":"bluebird","kind":"run","run_id":"run_7Hq2LmX9pQ4s","state":"running","observed_at":"{{future}}"}`))},
			args: runArgs, want: invalid("semantic", "future")},
		{name: "a timestamp at the window's edge", tool: "run_status", answer: corpus.Answer{Status: 200, ContentType: "application/json",
			Body: render(t, []byte(`{"project_id":"bluebird","kind":"run","run_id":"run_7Hq2LmX9pQ4s","state":"running","observed_at":"{{now-5m}}"}`))},
			args: runArgs, want: accepted(map[string]any{"project_id": "bluebird", "run_id": "run_7Hq2LmX9pQ4s", "state": "running", "observed_at": "2026-11-29T15:55:00Z"})},
		{name: "text integers become json.Number", tool: "host_uptime", answer: corpus.Answer{Status: 200, ContentType: "text/plain", Body: []byte("host=web-1\nuptime_seconds=0042\n")},
			args: map[string]string{"host": "web-1"}, want: accepted(map[string]any{"host": "web-1", "uptime_seconds": json.Number("42")})},
		{name: "a text value breaking its schema pattern", tool: "host_uptime", answer: corpus.Answer{Status: 200, ContentType: "text/plain", Body: []byte("host=web-1\nuptime_seconds=soon\n")},
			args: map[string]string{"host": "web-1"}, want: invalid("parse", "text_format")},
		{name: "another host", tool: "host_uptime", answer: corpus.Answer{Status: 200, ContentType: "text/plain", Body: []byte("host=web-2\nuptime_seconds=1\n")},
			args: map[string]string{"host": "web-1"}, want: invalid("semantic", "binding_mismatch")},
		{name: "a projection pointer naming nothing is a rejection", tool: "review_status",
			edit:   func(t *corpus.Tool) { t.Versions["v1"].Project["reviewed_by"] = "/reviewer/name" },
			answer: corpus.Answer{Status: 200, ContentType: "application/json", Body: review}, args: reviewArgs, want: invalid("schema", "schema_violation")},
		{name: "a binding pointer naming nothing is a mismatch", tool: "review_status",
			edit:   func(t *corpus.Tool) { t.Versions["v1"].Bind["/id"] = "change_id" },
			answer: corpus.Answer{Status: 200, ContentType: "application/json", Body: review}, args: reviewArgs, want: invalid("semantic", "binding_mismatch")},
		{name: "projected data the contract refuses", tool: "review_status",
			edit:   func(t *corpus.Tool) { t.Versions["v1"].Project["decision"] = "/reviewed_by" },
			answer: corpus.Answer{Status: 200, ContentType: "application/json", Body: review}, args: reviewArgs, want: invalid("schema", "schema_violation")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := loadTool(t, c, tt.tool)
			if tt.edit != nil {
				tt.edit(tool)
			}
			got, err := c.Evaluate(tool, "v1", tt.answer, tt.args, testNow, tt.lim)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, ignoreDetail); diff != "" {
				t.Errorf("Evaluate mismatch (-want +got):\n%s\ndetail: %s", diff, got.Detail)
			}
		})
	}
}

func TestEvaluateBrokenCorpus(t *testing.T) {
	review := []byte(`{"change_id":"CR-1042","decision":"approved","reviewed_by":"a"}`)
	tests := []struct {
		name    string
		fsys    func(t *testing.T) *corpus.Corpus
		edit    func(*corpus.Tool)
		version string
		args    map[string]string
	}{
		{name: "unknown version", version: "v9"},
		{name: "a pointer without its slash", edit: func(t *corpus.Tool) { t.Versions["v1"].Project["decision"] = "decision" }},
		{name: "an argument the binding needs is missing", args: map[string]string{}},
		{name: "unknown format", edit: func(t *corpus.Tool) { t.Format = "xml" }},
		{name: "key_value without keys", edit: func(t *corpus.Tool) { t.Format = corpus.FormatKeyValue }},
		{name: "integers field not projected", edit: func(t *corpus.Tool) {
			v := t.Versions["v1"]
			v.Integers = []string{"score"}
			t.Versions["v1"] = v
		}},
		{name: "missing schema file", edit: func(t *corpus.Tool) {
			v := t.Versions["v1"]
			v.Schema = "upstream/v9.schema.json"
			t.Versions["v1"] = v
		}},
		{name: "schema of another draft", fsys: func(t *testing.T) *corpus.Corpus {
			m := builtinCopy(t)
			setJSON(t, m, "review_status/upstream/v1.schema.json", "/$schema", "http://json-schema.org/draft-07/schema#")
			return corpus.New(m)
		}},
		{name: "contract missing", fsys: func(t *testing.T) *corpus.Corpus {
			m := builtinCopy(t)
			delete(m, "review_status/contract.json")
			return corpus.New(m)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := corpus.New(toolcert.Fixtures())
			if tt.fsys != nil {
				c = tt.fsys(t)
			}
			tool := loadTool(t, c, "review_status")
			if tt.edit != nil {
				tt.edit(tool)
			}
			version, args := "v1", map[string]string{"change_id": "CR-1042"}
			if tt.version != "" {
				version = tt.version
			}
			if tt.args != nil {
				args = tt.args
			}
			// A 404 needs no schema, yet a broken corpus is an error whatever the answer.
			for _, status := range []int{200, 404} {
				got, err := c.Evaluate(tool, version, corpus.Answer{Status: status, ContentType: "application/json", Body: review}, args, testNow, corpus.Limits{})
				if err == nil {
					t.Errorf("Evaluate(status %d) = %+v, want an error", status, got)
				}
			}
		})
	}
}

func TestEvaluateConcurrent(t *testing.T) {
	c := corpus.New(toolcert.Fixtures())
	tool := loadTool(t, c, "deploy_status")
	body := loadBody(t, c, "deploy_status", "accepted/healthy.json")
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			out, err := c.Evaluate(tool, "v1", corpus.Answer{Status: 200, ContentType: "application/json", Body: body}, map[string]string{"environment": "staging"}, testNow, corpus.Limits{})
			if err == nil && !out.Accepted {
				err = fmt.Errorf("rejected: %s %s", out.Reason, out.Detail)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}
