package selftest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/targets"
)

// issueFixtures is a corpus of an issue tracker whose issue number is an
// integer in the answer and a string argument: bind compares them as JSON
// values, so the generator makes wrong_bound_id cases of the number.
var issueFixtures = fstest.MapFS{
	"get_issue/tool.json": {Data: []byte(`{"tool": "get_issue", "request": {"method": "GET", "path": "/issues/{number}"},
 "arguments": {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
   "properties": {"number": {"type": "string", "pattern": "^[1-9][0-9]{0,9}$"}}, "required": ["number"], "additionalProperties": false},
 "format": "json", "content_type": "application/json",
 "versions": {"v1": {"schema": "upstream/v1.schema.json", "project": {"number": "/number", "title": "/title"}, "bind": {"/number": "number"}}}}`)},
	"get_issue/upstream/v1.schema.json": {Data: []byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
 "properties": {"number": {"type": "integer", "minimum": 1}, "title": {"type": "string", "maxLength": 200}, "body": {"type": "string"}},
 "required": ["number", "title"], "additionalProperties": false}`)},
	"get_issue/contract.json": {Data: []byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "oneOf": [
 {"type": "object", "properties": {"tool": {"const": "get_issue"}, "request_id": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.]{7,63}$"},
   "outcome": {"const": "success"}, "data": {"type": "object", "properties": {"number": {"type": "integer"}, "title": {"type": "string"}},
   "required": ["number", "title"], "additionalProperties": false}}, "required": ["tool", "request_id", "outcome", "data"], "additionalProperties": false},
 {"type": "object", "properties": {"tool": {"const": "get_issue"}, "request_id": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.]{7,63}$"},
   "outcome": {"const": "failure"}, "error": {"type": "object", "properties": {"code": {"enum": ["NOT_FOUND", "UPSTREAM_UNAVAILABLE", "INVALID_RESPONSE", "DENIED"]},
   "retryable": {"type": "boolean"}}, "required": ["code", "retryable"], "additionalProperties": false}}, "required": ["tool", "request_id", "outcome", "error"], "additionalProperties": false}]}`)},
	"get_issue/cases.json": {Data: []byte(`{"accepted": [{"id": "open", "body": "accepted/open.json", "versions": ["v1"],
 "arguments": {"number": "1347"}, "expect": {"number": 1347, "title": "Login fails"}}]}`)},
	"get_issue/accepted/open.json": {Data: []byte(`{"number": 1347, "title": "Login fails", "body": "{{canary:body}}"}`)},
}

// issueVariants runs the number's wrong_bound_id cases.
const issueVariants = `Feature: an issue of another number
  Scenario: one number off
    Then the generated variant "get_issue/open/wrong_bound_id/number#near" is handled as expected without leaking

  Scenario: negated
    Then the generated variant "get_issue/open/wrong_bound_id/number#negated" is handled as expected without leaking
`

// issueServer is an MCP server with get_issue: it fetches the issue and
// shows its number and title, as typed decoding does; with bound set, it
// refuses an issue whose number is not the one asked.
func issueServer(bound bool) targets.MCPBuildFunc {
	return func(env targets.Env) (*mcp.Server, io.Closer, error) {
		s := mcp.NewServer(&mcp.Implementation{Name: "issues", Version: "1"}, nil)
		type in struct {
			Number int `json:"number"`
		}
		type issue struct {
			Number int    `json:"number"`
			Title  string `json:"title"`
		}
		mcp.AddTool(s, &mcp.Tool{Name: "get_issue"}, func(ctx context.Context, _ *mcp.CallToolRequest, a in) (*mcp.CallToolResult, issue, error) {
			fail := func() (*mcp.CallToolResult, issue, error) {
				return &mcp.CallToolResult{IsError: true, StructuredContent: map[string]any{"error": map[string]any{"code": "INVALID_RESPONSE", "retryable": false}},
					Content: []mcp.Content{&mcp.TextContent{Text: "refused"}}}, issue{}, nil
			}
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/issues/%d", env.UpstreamURL, a.Number), nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return fail()
			}
			defer resp.Body.Close()
			var got issue
			if resp.StatusCode != 200 || json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&got) != nil {
				return fail()
			}
			if bound && got.Number != a.Number {
				return fail()
			}
			return nil, got, nil
		})
		return s, nil, nil
	}
}

// TestIntegerBindingCatchesAnotherObject: with an integer bound to the
// argument, the generated wrong_bound_id cases catch a server that shows
// the issue it got whatever its number (at both levels: another object is
// must-refuse), and pass one that checks it.
func TestIntegerBindingCatchesAnotherObject(t *testing.T) {
	run := func(bound bool) *reports.Result {
		res, err := runner.Run(context.Background(), runner.Config{
			Target:   targets.NewInProcessMCP("issues", issueServer(bound)),
			Fixtures: issueFixtures, Features: fstest.MapFS{"issues.feature": {Data: []byte(issueVariants)}},
			Tools: map[string]targets.ToolMap{"get_issue": {Arguments: `{"number": {{.number}}}`}},
		})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	naive := run(false)
	for _, sc := range naive.Scenarios {
		if len(sc.Cases) != 1 {
			t.Fatalf("%s: %d cases, want 1", sc.Name, len(sc.Cases))
		}
		c := sc.Cases[0]
		msg := ""
		for _, ev := range c.Evidence {
			msg += ev.Message + "\n"
		}
		if c.StatusAt(reports.LevelSafe) != reports.Failed || c.StatusAt(reports.LevelStrict) != reports.Failed || !strings.Contains(msg, "the agent saw success") {
			t.Errorf("%s against the server that does not bind: safe %s, strict %s, evidence:\n%s", c.ID, c.StatusAt(reports.LevelSafe), c.StatusAt(reports.LevelStrict), msg)
		}
	}
	careful := run(true)
	for _, sc := range careful.Scenarios {
		if sc.Status != reports.Passed {
			t.Errorf("%s against the server that binds: %s\n%s %+v", sc.Name, sc.Status, sc.Error, sc.Cases)
		}
	}
}
