package mutant

import (
	"fmt"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolcert/toolcert/adapters/internal/pipeline"
	"github.com/toolcert/toolcert/adapters/mcpbridge"
	"github.com/toolcert/toolcert/targets"
)

// InProcess returns the named mutant as a target served inside the
// harness, configured from each lane's environment like the reference. An
// unknown name is an error listing the valid names.
func InProcess(name string) (*targets.InProcess, error) {
	if _, err := lookup(name); err != nil {
		return nil, err
	}
	if Crashes(name) {
		return nil, fmt.Errorf("mutant %s takes its process down: serve it with toolcert-mutant, not in process", name)
	}
	return targets.NewInProcess("mutant "+name, builder(name)), nil
}

// InProcessMCP returns the named mutant served over MCP, in memory, as
// `toolcert-mutant --mcp` serves it (see mcpbridge), with its fault of the
// MCP server layer when it has one. A banner, which needs a stdout, is left
// out: serve such a mutant with toolcert-mutant --mcp stdio.
func InProcessMCP(name string) (*targets.InProcessMCP, error) {
	if _, err := lookup(name); err != nil {
		return nil, err
	}
	if Crashes(name) {
		return nil, fmt.Errorf("mutant %s takes its process down: serve it with toolcert-mutant --mcp stdio, not in process", name)
	}
	return targets.NewInProcessMCP("mutant "+name, func(env targets.Env) (*mcp.Server, io.Closer, error) {
		srv, closer, err := mcpbridge.InProcessBuild(builder(name))(env)
		if err != nil {
			return nil, nil, err
		}
		ServeMCP(name, srv)
		return srv, closer, nil
	}), nil
}

// builder builds the named mutant from a lane's environment.
func builder(name string) targets.BuildFunc {
	return func(env targets.Env) (http.Handler, io.Closer, error) {
		cfg, err := pipeline.ConfigFromEnv(pipeline.EnvLookup(env))
		if err != nil {
			return nil, nil, err
		}
		a, err := New(name, cfg)
		if err != nil {
			return nil, nil, err
		}
		return a, a, nil
	}
}
