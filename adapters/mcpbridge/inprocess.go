package mcpbridge

import (
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/targets"
)

// InProcess returns a target that serves, inside the harness and over MCP
// in memory, the protocol v1 adapter build makes for each lane, with the
// reference's tools: the reference or a mutant, bridged. It is named name
// in reports.
func InProcess(name string, build targets.BuildFunc) *targets.InProcessMCP {
	return targets.NewInProcessMCP(name, InProcessBuild(build))
}

// InProcessBuild returns the build function of InProcess: the adapter
// build makes for a lane, bridged, with the reference's tools.
func InProcessBuild(build targets.BuildFunc) targets.MCPBuildFunc {
	return func(env targets.Env) (*mcp.Server, io.Closer, error) {
		tools, err := ReferenceTools()
		if err != nil {
			return nil, nil, err
		}
		h, closer, err := build(env)
		if err != nil {
			return nil, nil, err
		}
		srv, err := New(h, tools)
		if err != nil {
			if closer != nil {
				closer.Close()
			}
			return nil, nil, err
		}
		return srv, closer, nil
	}
}

// InProcessReference returns the reference adapter over MCP, in memory.
func InProcessReference() *targets.InProcessMCP {
	return InProcess("reference", func(env targets.Env) (h http.Handler, c io.Closer, err error) {
		return reference.Build(env)
	})
}
