package runconfig

import (
	"fmt"
	"io/fs"
	"os"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/toolcert/toolcert/targets"
)

// fileKeys are the keys of an item of files.
var fileKeys = []string{"path", "text", "from", "mode"}

// files reads the files written for each lane.
func (d *decoder) files(n *yaml.Node, key string) ([]targets.FileTemplate, error) {
	var files []targets.FileTemplate
	err := d.sequence(n, key, func(i int, item *yaml.Node) error {
		f, err := d.fileTemplate(item, fmt.Sprintf("%s[%d]", key, i))
		files = append(files, f)
		return err
	})
	return files, err
}

// fileTemplate reads one file: its path, and its text or the template
// file it is made from.
func (d *decoder) fileTemplate(n *yaml.Node, key string) (targets.FileTemplate, error) {
	var (
		f       targets.FileTemplate
		hasText bool
	)
	err := d.mapping(n, key, fileKeys, func(name string, v *yaml.Node) (err error) {
		k := key + "." + name
		switch name {
		case "path":
			if f.Path, err = d.str(v, k); err == nil {
				err = d.laneTemplate(v, k, f.Path)
			}
		case "text":
			if hasText {
				return d.faultf(v, k, "text and from exclude each other")
			}
			hasText = true
			if f.Text, err = d.str(v, k); err == nil {
				err = d.laneTemplate(v, k, f.Text)
			}
		case "from":
			if hasText {
				return d.faultf(v, k, "text and from exclude each other")
			}
			hasText = true
			f.Text, err = d.template(v, k)
		case "mode":
			f.Mode, err = d.mode(v, k)
		}
		return err
	})
	switch {
	case err != nil:
		return f, err
	case f.Path == "":
		return f, d.faultf(n, key+".path", "missing: a file needs the path it is written to")
	}
	return f, nil
}

// laneTemplate checks that s, the value of key at n, renders over the
// lane values.
func (d *decoder) laneTemplate(n *yaml.Node, key, s string) error {
	if err := checkLaneTemplate(s); err != nil {
		return d.fault(n, key, err)
	}
	return nil
}

// template reads the template file n names, relative to the config
// file's folder, and checks it.
func (d *decoder) template(n *yaml.Node, key string) (string, error) {
	path, err := d.path(n, key)
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", d.fault(n, key, err)
	}
	return string(b), d.laneTemplate(n, key, string(b))
}

// mode reads a file mode: an octal integer such as 0644, or a string of
// octal digits.
func (d *decoder) mode(n *yaml.Node, key string) (fs.FileMode, error) {
	const want = "a permission in octal, such as 0644"
	r := resolve(n)
	var (
		v   uint64
		err error
	)
	switch {
	case r.Kind == yaml.ScalarNode && r.ShortTag() == "!!int":
		err = r.Decode(&v)
	case r.Kind == yaml.ScalarNode && r.ShortTag() == "!!str":
		v, err = strconv.ParseUint(r.Value, 8, 32)
	default:
		return 0, d.wrongType(n, key, want)
	}
	if err != nil || v == 0 || v > 0o777 {
		return 0, d.faultf(n, key, "want %s, got %s", want, r.Value)
	}
	return fs.FileMode(v), nil
}
