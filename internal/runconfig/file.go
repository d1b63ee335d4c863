package runconfig

import (
	"fmt"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"github.com/toolcert/toolcert/targets"
)

// File is a config file, read and checked: the run keys it sets, its
// target and its tool map. Merge lays the flags over it.
type File struct {
	path   string
	keys   map[string]func(*Flags) // the run keys it sets, by name
	lines  map[string]int          // the line of every key, by dotted path
	target targets.Spec
	caps   *targets.Capabilities
	tools  map[string]targets.ToolMap
}

// Load reads the config file at path; see Parse.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return Parse(path, data)
}

// Parse reads data, the content of the config file at path (docs/config.md).
// A relative path in it is under path's folder, and a file's template
// (from) is read from there. It checks everything that does not need a
// lane: the key names and types, the kind, the command's syntax, every
// template, every tool's result. Every fault is an *Error naming path, the
// line and the key; an empty document holds no key.
func Parse(path string, data []byte) (*File, error) {
	d := &decoder{file: path, dir: filepath.Dir(path), lines: map[string]int{}}
	f := &File{path: path, keys: map[string]func(*Flags){}, lines: d.lines}
	root, err := d.document(data)
	if err != nil || root == nil {
		return f, err
	}
	keys := runKeys()
	reads := map[string]func(*decoder, *yaml.Node, string) (func(*Flags), error){}
	for _, k := range keys {
		reads[k.name] = k.read
	}
	err = d.mapping(root, "", append(Keys(), "target", "tools"), func(name string, v *yaml.Node) (err error) {
		switch name {
		case "target":
			f.target, f.caps, err = d.target(v)
		case "tools":
			f.tools, err = d.tools(v)
		default:
			f.keys[name], err = reads[name](d, v, name)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}
