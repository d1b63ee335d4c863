package runconfig

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// decoder reads the nodes of one config file, naming the file, the line
// and the key in every error.
type decoder struct {
	file  string         // the file's path as given, for messages
	dir   string         // its folder, which relative paths are under
	lines map[string]int // the line of every key read, by dotted path
}

// fault returns err as the error of key at n's line.
func (d *decoder) fault(n *yaml.Node, key string, err error) error {
	return &Error{File: d.file, Line: n.Line, Key: key, Err: err}
}

// faultf returns the error of key at n's line, built like fmt.Errorf.
func (d *decoder) faultf(n *yaml.Node, key, format string, args ...any) error {
	return d.fault(n, key, fmt.Errorf(format, args...))
}

// wrongType returns the error of a value of key that is not what it takes.
func (d *decoder) wrongType(n *yaml.Node, key, want string) error {
	return d.faultf(n, key, "%w: want %s, got %s", ErrWrongType, want, describe(n))
}

// yamlLine matches the line yaml.v3 puts in a syntax error.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// document parses data, which must hold at most one YAML document, and
// returns its root, or nil when the document is empty.
func (d *decoder) document(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc, next yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, d.syntax(err)
	}
	switch err := dec.Decode(&next); {
	case err == nil:
		return nil, d.faultf(&next, "", "a second document: a config file holds one")
	case !errors.Is(err, io.EOF):
		return nil, d.syntax(err)
	}
	root := resolve(doc.Content[0])
	if root.ShortTag() == "!!null" {
		return nil, nil
	}
	return root, nil
}

// syntax returns yaml.v3's syntax error as an *Error at its line.
func (d *decoder) syntax(err error) error {
	m := yamlLine.FindStringSubmatch(err.Error())
	if m == nil {
		return &Error{File: d.file, Err: err}
	}
	line, _ := strconv.Atoi(m[1])
	return &Error{File: d.file, Line: line, Err: errors.New(m[2])}
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// mapping calls each with the name and value of every key of n, in order.
// It refuses a node that is not a mapping, a key that is not a scalar, a
// key given twice and, when known is not nil, a key not in known. It
// records the line of every key under its dotted path, path.name.
func (d *decoder) mapping(n *yaml.Node, path string, known []string, each func(name string, value *yaml.Node) error) error {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		return d.wrongType(n, path, "a mapping")
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := resolve(n.Content[i])
		if k.Kind != yaml.ScalarNode {
			return d.faultf(k, path, "%w: a key must be a name, got %s", ErrWrongType, describe(k))
		}
		key := join(path, k.Value)
		if first, ok := seen[k.Value]; ok {
			return d.faultf(k, key, "%w (first at line %d)", ErrDuplicateKey, first)
		}
		seen[k.Value] = k.Line
		if known != nil && !slices.Contains(known, k.Value) {
			return d.fault(k, key, unknownKey(k.Value, known))
		}
		d.lines[key] = k.Line
		if err := each(k.Value, n.Content[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// sequence calls each with the index and node of every item of n, a list.
func (d *decoder) sequence(n *yaml.Node, path string, each func(i int, item *yaml.Node) error) error {
	n = resolve(n)
	if n.Kind != yaml.SequenceNode {
		return d.wrongType(n, path, "a list")
	}
	for i, item := range n.Content {
		if err := each(i, item); err != nil {
			return err
		}
	}
	return nil
}

// join returns the dotted path of name under path.
func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// str returns n, which must be a string.
func (d *decoder) str(n *yaml.Node, key string) (string, error) {
	n = resolve(n)
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		return "", d.wrongType(n, key, "a string")
	}
	return n.Value, nil
}

// scalar decodes n, which must be a scalar of tag, into a T.
func scalar[T any](d *decoder, n *yaml.Node, key, tag, want string) (T, error) {
	var v T
	n = resolve(n)
	if n.Kind != yaml.ScalarNode || n.ShortTag() != tag {
		return v, d.wrongType(n, key, want)
	}
	if err := n.Decode(&v); err != nil {
		return v, d.faultf(n, key, "%w: want %s, got %s", ErrWrongType, want, n.Value)
	}
	return v, nil
}

// words returns n, a string or a list of strings, and whether it was a
// list.
func (d *decoder) words(n *yaml.Node, key string) ([]string, bool, error) {
	if r := resolve(n); r.Kind == yaml.ScalarNode {
		s, err := d.str(r, key)
		return []string{s}, false, err
	}
	var words []string
	err := d.sequence(n, key, func(i int, item *yaml.Node) error {
		w, err := d.str(item, fmt.Sprintf("%s[%d]", key, i))
		words = append(words, w)
		return err
	})
	if err != nil {
		return nil, true, err
	}
	if len(words) == 0 {
		return nil, true, d.faultf(n, key, "an empty list")
	}
	return words, true, nil
}

// describe names what n is, for a wrong-type error.
func describe(n *yaml.Node) string {
	n = resolve(n)
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	switch n.ShortTag() {
	case "!!str":
		return fmt.Sprintf("the string %q", n.Value)
	case "!!int":
		return "the integer " + n.Value
	case "!!float":
		return "the number " + n.Value
	case "!!bool":
		return "the boolean " + n.Value
	case "!!null":
		return "nothing (null)"
	}
	return fmt.Sprintf("%q (%s)", n.Value, n.ShortTag())
}
