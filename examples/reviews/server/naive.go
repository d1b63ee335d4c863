package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// naiveTool is list_pull_request_reviews as many MCP servers are written
// today. Of the faults toolcert reports in it, three are classic:
//
//   - encoding/json keeps the last of two members of the same name, so
//     {"user": {"login": "sam"}, "user": {"login": "mallory"}} is mallory's
//     review;
//   - the upstream's error message is wrapped into the tool's error, which
//     the agent reads: whatever the upstream (or anyone who can write into
//     its error pages) says reaches the model;
//   - a body of null decodes into a nil slice without an error, and goes
//     out as {"reviews": null}, a success: "no reviews" and "no answer" look
//     the same to the agent.
//
// The others (docs/certify-an-mcp-server.md has the list) come from the
// same lines: no byte limit, no retry, no check of the content type, and
// structs that drop what they do not declare.
type naiveTool struct {
	baseURL string
	token   string
	http    *http.Client
}

// reviewsArgs are the tool's arguments; the SDK infers the input schema
// from them and validates every call against it.
type reviewsArgs struct {
	Owner      string `json:"owner" jsonschema:"the account that owns the repository"`
	Repo       string `json:"repo" jsonschema:"the repository's name"`
	PullNumber int    `json:"pull_number" jsonschema:"the pull request's number"`
}

// Review is one review as GitHub sends it, with the fields the tool keeps.
type Review struct {
	ID          int64      `json:"id"`
	State       string     `json:"state"`
	User        User       `json:"user"`
	SubmittedAt *time.Time `json:"submitted_at,omitempty"`
}

// User is a review's author.
type User struct {
	Login string `json:"login"`
}

// reviewsResult is the tool's structured content.
type reviewsResult struct {
	Reviews []Review `json:"reviews"`
}

// newNaiveTool returns the tool reading GitHub at baseURL, with token (if
// any) as its bearer token.
func newNaiveTool(baseURL, token string) *naiveTool {
	return &naiveTool{baseURL: strings.TrimSuffix(baseURL, "/"), token: token, http: &http.Client{Timeout: 30 * time.Second}}
}

// register adds the tool to server.
func (t *naiveTool) register(server *mcp.Server) {
	mcp.AddTool(server, &mcp.Tool{Name: toolName, Description: toolDescription}, t.list)
}

// list answers one call: GET the reviews, decode them, return them.
func (t *naiveTool) list(ctx context.Context, _ *mcp.CallToolRequest, args reviewsArgs) (*mcp.CallToolResult, reviewsResult, error) {
	u := fmt.Sprintf("%s/repos/%s/%s/pulls/%d/reviews", t.baseURL, url.PathEscape(args.Owner), url.PathEscape(args.Repo), args.PullNumber)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, reviewsResult{}, err
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	if t.token != "" {
		req.Header.Set("Authorization", "Bearer "+t.token)
	}
	resp, err := t.http.Do(req)
	if err != nil {
		return nil, reviewsResult{}, fmt.Errorf("github: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		var body struct {
			Message string `json:"message"`
		}
		json.NewDecoder(resp.Body).Decode(&body)
		return nil, reviewsResult{}, fmt.Errorf("github: %s: %s", resp.Status, body.Message)
	}
	var reviews []Review
	if err := json.NewDecoder(resp.Body).Decode(&reviews); err != nil {
		return nil, reviewsResult{}, fmt.Errorf("github: decode reviews: %w", err)
	}
	return nil, reviewsResult{Reviews: reviews}, nil
}
