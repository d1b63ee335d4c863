package reference

import (
	"io"
	"net/http"

	"github.com/toolcert/toolcert/adapters/internal/pipeline"
	"github.com/toolcert/toolcert/targets"
)

// InProcess returns the reference adapter as a target served inside the
// harness: each instance is built by [Build] from the lane's environment.
func InProcess() *targets.InProcess {
	return targets.NewInProcess("reference", func(env targets.Env) (http.Handler, io.Closer, error) {
		a, c, err := Build(env)
		if err != nil {
			return nil, nil, err
		}
		return a, c, nil
	})
}

// Build builds an adapter from a lane's environment exactly as a process
// target would read it (see [ConfigFromEnv]). It returns the adapter twice:
// as the handler and as the closer of its audit file.
func Build(env targets.Env) (*Adapter, io.Closer, error) {
	p, _, err := pipeline.Build(env)
	if err != nil {
		return nil, nil, err
	}
	a := (*Adapter)(p)
	return a, a, nil
}
