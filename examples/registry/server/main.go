// Command server is an MCP server on stdin and stdout over the HTTP API of
// Pkgyard, a made-up package registry (../openapi.yaml), read from
// REGISTRY_API_URL (default https://registry.example, which does not
// exist). Writes send REGISTRY_TOKEN as a bearer token when it is set.
//
// It has 16 tools: 14 reads (readOnlyHint) and 2 writes (destructiveHint),
// written the way Go MCP servers usually are: mcp.AddTool with typed
// arguments and results, net/http, encoding/json into structs that drop
// what they do not declare. Both modes check every answer's status,
// Content-Type, size and text, check it against the schema the
// description declares for the route, and check that it is about the
// object asked for; a failure is a fixed text, such as "registry: the
// package could not be read", with isError set, and the detail goes to
// standard error. Nothing but JSON-RPC is written to standard output.
//
// As it is, the server has planted defects, one per tool (naive.go), and
// one in every tool (a member named twice: encoding/json keeps the last
// value); ../DEFECTS.md lists them. With --fixed it has none of them.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Where the server finds the registry.
const (
	envAPIURL     = "REGISTRY_API_URL"
	envToken      = "REGISTRY_TOKEN"
	defaultAPIURL = "https://registry.example"
)

// version is the server's version, sent in its User-Agent too.
const version = "0.1.0"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, &mcp.StdioTransport{}, os.Stderr)
	stop()
	os.Exit(code)
}

// run parses the flags, serves MCP on transport until the client leaves or
// ctx is done, and returns the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, transport mcp.Transport, stderr io.Writer) int {
	fs := flag.NewFlagSet("registry-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fixed := fs.Bool("fixed", false, "serve the fixed tools instead of the ones with planted defects")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	base := getenv(envAPIURL)
	if base == "" {
		base = defaultAPIURL
	}
	logger := log.New(stderr, "registry-server: ", log.LstdFlags)
	schema, err := newValidator(description)
	if err != nil {
		fmt.Fprintln(stderr, "registry-server:", err)
		return 2
	}
	r := &registry{c: newClient(base, getenv(envToken), *fixed, schema, logger), fixed: *fixed, log: logger}
	server := mcp.NewServer(&mcp.Implementation{Name: "pkgyard-registry", Version: version}, nil)
	r.register(server)
	if err := server.Run(ctx, transport); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "registry-server:", err)
		return 1
	}
	return 0
}
