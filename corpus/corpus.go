package corpus

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/toolcert/toolcert/protocol"
)

// Corpus is a fixture tree: one folder per tool holding its agent contract
// (contract.json) and its upstream bodies, stored as raw bytes.
type Corpus struct {
	fsys fs.FS
	// schemas caches the schemas Evaluate compiled, by file.
	schemas schemaCache
}

// PolicyFile is the file, beside the tool folders, with the call-side
// policy the harness hands every target it starts (sessions, grants,
// allowlist, approvals); see docs/protocol.md, "The policy file".
const PolicyFile = "policy.json"

// New returns the corpus rooted at fsys (the folder that holds one folder
// per tool).
func New(fsys fs.FS) *Corpus { return &Corpus{fsys: fsys} }

// Fixture returns the raw bytes of the fixture at name, a slash-separated
// path such as "review_status/accepted/approved.json".
func (c *Corpus) Fixture(name string) ([]byte, error) {
	clean := path.Clean(name)
	if !fs.ValidPath(clean) || strings.HasPrefix(clean, "../") {
		return nil, fmt.Errorf("load fixture %q: invalid path", name)
	}
	b, err := fs.ReadFile(c.fsys, clean)
	if err != nil {
		return nil, fmt.Errorf("load fixture %q: %w", name, err)
	}
	return b, nil
}

// Contract returns the agent-visible contract of tool: the JSON Schema that
// every result the agent sees from that tool must satisfy.
func (c *Corpus) Contract(tool string) ([]byte, error) {
	b, err := fs.ReadFile(c.fsys, path.Join(tool, "contract.json"))
	if err != nil {
		return nil, fmt.Errorf("load contract of %q: %w", tool, err)
	}
	return b, nil
}

// ContentType guesses the Content-Type an upstream sends with the fixture
// at name, from its extension.
func ContentType(name string) string {
	switch path.Ext(name) {
	case ".txt":
		return "text/plain; charset=utf-8"
	case ".html":
		return "text/html; charset=utf-8"
	}
	return protocol.ContentTypeJSON
}
