package runconfig

import (
	"fmt"
	"strings"
	"text/template"

	"go.yaml.in/yaml/v3"

	"github.com/toolcert/toolcert/targets"
)

// toolKeys are the keys of a tool's mapping.
var toolKeys = []string{"name", "arguments", "result", "data", "code", "retryable"}

// tools reads the tool map: corpus tool name to how the target calls it.
func (d *decoder) tools(n *yaml.Node) (map[string]targets.ToolMap, error) {
	tools := map[string]targets.ToolMap{}
	err := d.mapping(n, "tools", nil, func(tool string, v *yaml.Node) (err error) {
		tools[tool], err = d.toolMap(v, "tools."+tool)
		return err
	})
	return tools, err
}

// toolMap reads how the target calls one corpus tool.
func (d *decoder) toolMap(n *yaml.Node, key string) (targets.ToolMap, error) {
	var m targets.ToolMap
	err := d.mapping(n, key, toolKeys, func(name string, v *yaml.Node) error {
		k := key + "." + name
		s, err := d.str(v, k)
		if err != nil {
			return err
		}
		switch name {
		case "name":
			m.Name = s
			if s == "" {
				err = fmt.Errorf("an empty name")
			}
		case "arguments":
			m.Arguments, err = s, checkArguments(s)
		case "result":
			m.Result = s
			_, _, err = m.Source()
		case "data":
			m.Data, err = s, checkPointer(s)
		case "code":
			m.Code, err = s, checkPointer(s)
		case "retryable":
			m.Retryable, err = s, checkPointer(s)
		}
		if err != nil {
			return d.fault(v, k, err)
		}
		return nil
	})
	return m, err
}

// checkArguments reports whether s parses as an argument template: Go
// template actions over the corpus's arguments, with json to quote a value
// (targets.ToolMap.Arguments). Only a call can tell whether it names
// arguments the corpus has.
func checkArguments(s string) error {
	fn := template.FuncMap{"json": func(any) (string, error) { return "", nil }}
	if _, err := template.New("arguments").Funcs(fn).Parse(s); err != nil {
		return fmt.Errorf("argument template: %w", err)
	}
	return nil
}

// checkPointer reports whether s is a JSON pointer (RFC 6901): "" or
// "/"-separated tokens, with ~ only as ~0 or ~1.
func checkPointer(s string) error {
	if s != "" && !strings.HasPrefix(s, "/") {
		return fmt.Errorf("%q is not a JSON pointer: want \"\" or one that starts with /", s)
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && (i+1 == len(s) || (s[i+1] != '0' && s[i+1] != '1')) {
			return fmt.Errorf("%q is not a JSON pointer: ~ must be written ~0 and / ~1", s)
		}
	}
	return nil
}
