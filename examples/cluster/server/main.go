// Command server is an MCP server on stdin and stdout with one tool,
// get_pod: the phase of a pod, read from a cluster API's
// GET /api/v1/namespaces/{namespace}/pods/{name} under KUBE_API_URL.
//
// It behaves as a client-go based server does: before its first pod
// request it runs discovery (GET /api, then GET /apis) and keeps the
// outcome for the life of the process. A discovery that failed (any
// status but 200, or a body of the wrong kind) fails every later call with
// the same fixed error, and is never asked again. Against a mock upstream
// that answers an unprogrammed route with 501, such a server is broken
// for good after its first call; the corpus's routes.json (side routes)
// is what lets it be certified with no Background and in any order.
//
// The pod-reading part is built from toolcert's gate library: a bounded
// fetch, a strict parse, a pinned closed schema, the answer bound to the
// arguments, and fixed error results that carry no upstream text.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// envAPIURL names the variable the cluster API's base URL is read from.
const envAPIURL = "KUBE_API_URL"

// toolName is the one tool the server lists.
const toolName = "get_pod"

// toolDescription is what the agent reads about the tool.
const toolDescription = "Get a Kubernetes pod's phase: its name, namespace and phase (Pending, Running, Succeeded, Failed or Unknown)."

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Getenv, &mcp.StdioTransport{}, os.Stderr)
	stop()
	os.Exit(code)
}

// run serves MCP on transport until the client leaves or ctx is done, and
// returns the exit code.
func run(ctx context.Context, getenv func(string) string, transport mcp.Transport, stderr io.Writer) int {
	base := getenv(envAPIURL)
	if base == "" {
		fmt.Fprintf(stderr, "server: %s is not set: want the cluster API's base URL\n", envAPIURL)
		return 2
	}
	tool, err := newPodTool(base, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "server:", err)
		return 2
	}
	defer tool.close()
	server := mcp.NewServer(&mcp.Implementation{Name: "cluster-example", Version: "0.1.0"}, nil)
	tool.register(server)
	if err := server.Run(ctx, transport); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "server:", err)
		return 1
	}
	return 0
}
