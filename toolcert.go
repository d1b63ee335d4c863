// Package toolcert holds the built-in corpus: the Gherkin features and the
// fixtures that `toolcert run` uses when no --features or --fixtures are
// given. The harness itself lives in the packages below this one: mocks
// serve, adapters are targets, steps assert, runner orchestrates, reports
// render.
package toolcert

import (
	"embed"
	"io/fs"
)

//go:embed features fixtures
var builtin embed.FS

// Features returns the built-in features; the .feature files are under
// "features/".
func Features() fs.FS { return builtin }

// Fixtures returns the built-in fixture corpus, rooted at the folder that
// holds one folder per tool.
func Fixtures() fs.FS {
	sub, err := fs.Sub(builtin, "fixtures")
	if err != nil {
		panic(err) // the embed pattern above guarantees the folder
	}
	return sub
}
