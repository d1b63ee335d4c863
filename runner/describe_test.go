package runner

import (
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/targets"
)

// TestAnyListed: a server that lists none of the corpus's tools, by name or
// by map, is a configuration error that names both lists; one that lists
// one of them, or a mapped name, is not.
func TestAnyListed(t *testing.T) {
	c := corpus.New(toolcert.Fixtures())
	other := []*mcp.Tool{{Name: "search_modules"}, {Name: "get_module_details"}}
	err := anyListed(c, nil, other)
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "run_status") || !strings.Contains(err.Error(), "search_modules") {
		t.Errorf("a server listing none of the corpus's tools: %v; want a configuration error naming both lists", err)
	}
	if err := anyListed(c, nil, append(other, &mcp.Tool{Name: "run_status"})); err != nil {
		t.Errorf("a server listing run_status: %v", err)
	}
	if err := anyListed(c, map[string]targets.ToolMap{"run_status": {Name: "search_modules"}}, other); err != nil {
		t.Errorf("a server listing a mapped name: %v", err)
	}
}
