package reference

import (
	"embed"
	"fmt"

	"github.com/toolcert/toolcert/gate"
)

// schemaFS holds the pinned schemas: per tool <tool>.args.json,
// <tool>.vendor.v1.json and <tool>.contract.json.
//
//go:embed schemas/*.json
var schemaFS embed.FS

// Schema returns the pinned schema document of tool for kind "args",
// "vendor.v1" or "contract".
func Schema(tool, kind string) ([]byte, error) {
	b, err := schemaFS.ReadFile("schemas/" + tool + "." + kind + ".json")
	if err != nil {
		return nil, fmt.Errorf("schema %s %s: %w", tool, kind, err)
	}
	return b, nil
}

// toolSchemas are the compiled schemas of one tool.
type toolSchemas struct {
	args, vendor, contract *gate.Schema
}

// compileSchemas compiles the three schemas of tool, the vendor one after
// transform.
func compileSchemas(tool string, transform func([]byte) []byte) (toolSchemas, error) {
	var out toolSchemas
	for _, s := range []struct {
		kind string
		dst  **gate.Schema
		tf   func([]byte) []byte
	}{
		{"args", &out.args, nil},
		{"vendor.v1", &out.vendor, transform},
		{"contract", &out.contract, nil},
	} {
		b, err := Schema(tool, s.kind)
		if err != nil {
			return out, err
		}
		if s.tf != nil {
			b = s.tf(b)
		}
		if *s.dst, err = gate.Compile(tool+"."+s.kind, b); err != nil {
			return out, err
		}
	}
	return out, nil
}
