package mutant

import (
	"io"
	"net/http"

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
	return targets.NewInProcess("mutant "+name, builder(name)), nil
}

// InProcessMCP returns the named mutant served over MCP, in memory, as
// `toolcert-mutant --mcp` serves it (see mcpbridge).
func InProcessMCP(name string) (*targets.InProcessMCP, error) {
	if _, err := lookup(name); err != nil {
		return nil, err
	}
	return mcpbridge.InProcess("mutant "+name, builder(name)), nil
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
