// Command server is an MCP server on stdin and stdout with one tool,
// list_pull_request_reviews: the reviews of a GitHub pull request, read
// from GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews under
// GITHUB_API_URL (default https://api.github.com). It is the worked example
// of docs/certify-an-mcp-server.md.
//
// As it is, it is written the way many MCP servers are written today
// (naive.go): net/http, encoding/json into Go structs, and the upstream's
// error message wrapped into the tool's error. toolcert finds its faults:
// a duplicate member's last value reaches the agent, so does the upstream's
// error message, and a null body is reported as a pull request without
// reviews.
//
// With --fixed it serves the same tool built from toolcert's gate library
// (fixed.go): a bounded fetch, a strict parse, a pinned closed schema, and
// fixed error results that carry no upstream text.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Where the server finds GitHub, and its default.
const (
	envAPIURL     = "GITHUB_API_URL"
	envToken      = "GITHUB_TOKEN"
	defaultAPIURL = "https://api.github.com"
)

// toolName is the one tool the server lists.
const toolName = "list_pull_request_reviews"

// toolDescription is what the agent reads about the tool.
const toolDescription = "List the reviews of a GitHub pull request: each review's id, state, reviewer login and submission time."

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, &mcp.StdioTransport{}, os.Stderr)
	stop()
	os.Exit(code)
}

// run parses the flags, serves MCP on transport until the client leaves or
// ctx is done, and returns the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, transport mcp.Transport, stderr io.Writer) int {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fixed := fs.Bool("fixed", false, "serve the tool built from the gate library instead of the naive one")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	base := getenv(envAPIURL)
	if base == "" {
		base = defaultAPIURL
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "reviews-example", Version: "0.1.0"}, nil)
	if *fixed {
		tool, err := newFixedTool(base, stderr)
		if err != nil {
			fmt.Fprintln(stderr, "server:", err)
			return 2
		}
		defer tool.close()
		tool.register(server)
	} else {
		newNaiveTool(base, getenv(envToken)).register(server)
	}
	if err := server.Run(ctx, transport); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "server:", err)
		return 1
	}
	return 0
}
