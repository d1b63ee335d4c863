package mcpbridge

import (
	"fmt"

	"github.com/toolcert/toolcert/adapters/reference"
)

// ReferenceTools returns the reference adapter's tools (every mutant has
// the same), each with its pinned argument schema, in the order of
// reference.Tools.
func ReferenceTools() ([]Tool, error) {
	var tools []Tool
	for _, name := range reference.Tools() {
		schema, err := reference.Schema(name, "args")
		if err != nil {
			return nil, fmt.Errorf("reference tool %s: %w", name, err)
		}
		tools = append(tools, Tool{Name: name, InputSchema: schema})
	}
	return tools, nil
}
