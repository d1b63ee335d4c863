package pipeline

import (
	"io"
	"strings"

	"github.com/toolcert/toolcert/targets"
)

// Build builds an adapter from a lane's environment exactly as a process
// target would read it (see [ConfigFromEnv]). It returns the adapter twice:
// as the handler and as the closer of its audit file.
func Build(env targets.Env) (*Adapter, io.Closer, error) {
	cfg, err := ConfigFromEnv(EnvLookup(env))
	if err != nil {
		return nil, nil, err
	}
	a, err := New(cfg)
	if err != nil {
		return nil, nil, err
	}
	return a, a, nil
}

// EnvLookup returns a getenv function over the variables of env, for
// [ConfigFromEnv].
func EnvLookup(env targets.Env) func(string) string {
	vars := map[string]string{}
	for _, kv := range env.Vars(nil) {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	return func(k string) string { return vars[k] }
}
