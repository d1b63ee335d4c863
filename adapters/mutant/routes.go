package mutant

import (
	"github.com/toolcert/toolcert/adapters/internal/pipeline"
	"github.com/toolcert/toolcert/protocol"
)

// anyObject is an argument schema that takes every object.
var anyObject = []byte(`{"$schema": "` + protocol.DraftURI + `", "type": "object"}`)

// argumentMutants returns the mutants of how arguments reach the upstream.
func argumentMutants() map[string]mutant {
	open := pipeline.WithArgumentsSchemaTransform(func(string, []byte) []byte { return anyObject })
	return map[string]mutant{
		"arguments-unchecked": {
			describe: "the argument schema is not enforced: any arguments, wrong types and unknown ones included, reach the upstream",
			options:  func(pipeline.Config) []pipeline.Option { return []pipeline.Option{open} },
		},
		"path-injection": {
			describe: "argument values reach the upstream request line as they are: neither checked against their pattern nor escaped (../, ?, # and CRLF included)",
			options: func(pipeline.Config) []pipeline.Option {
				return []pipeline.Option{open, pipeline.WithArgumentEscape(func(s string) string { return s })}
			},
		},
	}
}
