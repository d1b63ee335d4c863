package runconfig

import (
	"go.yaml.in/yaml/v3"

	"github.com/toolcert/toolcert/targets"
)

// toolKeys are the keys of a tool's mapping.
var toolKeys = []string{"name", "arguments", "result", "data", "code", "retryable",
	"method", "path", "header", "body", "failure-status", "failure-pointer", "request-id-header", "wrap", "volatile", "compare", "codes"}

// tools reads the tool map: corpus tool name to how the target calls it.
func (d *decoder) tools(n *yaml.Node) (map[string]targets.ToolMap, error) {
	tools := map[string]targets.ToolMap{}
	err := d.mapping(n, "tools", nil, func(tool string, v *yaml.Node) (err error) {
		tools[tool], err = d.toolMap(v, "tools."+tool)
		return err
	})
	return tools, err
}

// toolMap reads how the target calls one corpus tool; targets.ToolMap.Check
// judges the whole, its error given at the tool's key.
func (d *decoder) toolMap(n *yaml.Node, key string) (targets.ToolMap, error) {
	var m targets.ToolMap
	err := d.mapping(n, key, toolKeys, func(name string, v *yaml.Node) error {
		k := key + "." + name
		switch name {
		case "header":
			h, err := d.header(v, k)
			m.Header = h
			return err
		case "volatile":
			vol, err := d.volatile(v, k)
			m.Volatile = vol
			return err
		case "compare":
			c, err := d.compare(v, k)
			m.Compare = c
			return err
		case "codes":
			c, err := d.codes(v, k)
			m.Codes = c
			return err
		}
		s, err := d.str(v, k)
		if err != nil {
			return err
		}
		if name == "name" && s == "" {
			return d.faultf(v, k, "an empty name")
		}
		*toolField(&m, name) = s
		probe := targets.ToolMap{}
		*toolField(&probe, name) = s
		if err := probe.Check(); err != nil {
			return d.fault(v, k, err)
		}
		return nil
	})
	return m, err
}

// toolField returns the field of m that the key name sets.
func toolField(m *targets.ToolMap, name string) *string {
	return map[string]*string{
		"name": &m.Name, "arguments": &m.Arguments, "result": &m.Result, "data": &m.Data, "code": &m.Code,
		"retryable": &m.Retryable, "method": &m.Method, "path": &m.Path, "body": &m.Body,
		"failure-status": &m.FailureStatus, "failure-pointer": &m.FailurePointer, "request-id-header": &m.RequestIDHeader,
		"wrap": &m.Wrap,
	}[name]
}

// header reads the header templates of an http tool's request: each
// value a template over the corpus's arguments (targets.ToolMap.Check).
func (d *decoder) header(n *yaml.Node, key string) (map[string]string, error) {
	h := map[string]string{}
	err := d.mapping(n, key, nil, func(name string, v *yaml.Node) error {
		k := key + "." + name
		s, err := d.str(v, k)
		if err != nil {
			return err
		}
		if err := (targets.ToolMap{Header: map[string]string{name: s}}).Check(); err != nil {
			return d.fault(v, k, err)
		}
		h[name] = s
		return nil
	})
	return h, err
}

// volatile reads what the target makes up on every call: pointers and
// patterns, each a list of strings (targets.Volatile).
func (d *decoder) volatile(n *yaml.Node, key string) (targets.Volatile, error) {
	var v targets.Volatile
	err := d.mapping(n, key, []string{"pointers", "patterns"}, func(name string, item *yaml.Node) error {
		k := key + "." + name
		list, err := d.list(item, k)
		if err != nil {
			return err
		}
		probe := targets.ToolMap{}
		if name == "pointers" {
			v.Pointers, probe.Volatile.Pointers = list, list
		} else {
			v.Patterns, probe.Volatile.Patterns = list, list
		}
		if err := probe.Check(); err != nil {
			return d.fault(item, k, err)
		}
		return nil
	})
	return v, err
}

// compare reads how the agent's data is compared: instants and omit-zero
// (booleans), adds and hidden (lists of pointers) (targets.Compare).
func (d *decoder) compare(n *yaml.Node, key string) (targets.Compare, error) {
	var c targets.Compare
	err := d.mapping(n, key, []string{"instants", "omit-zero", "adds", "hidden"}, func(name string, item *yaml.Node) error {
		k := key + "." + name
		switch name {
		case "adds", "hidden":
			list, err := d.list(item, k)
			if err != nil {
				return err
			}
			if err := (targets.ToolMap{Compare: targets.Compare{Adds: list}}).Check(); err != nil {
				return d.fault(item, k, err)
			}
			if name == "adds" {
				c.Adds = list
			} else {
				c.Hidden = list
			}
			return nil
		case "instants":
			v, err := scalar[bool](d, item, k, "!!bool", "true or false")
			c.Instants = v
			return err
		}
		v, err := scalar[bool](d, item, k, "!!bool", "true or false")
		c.OmitZero = v
		return err
	})
	return c, err
}

// list reads a string or a list of strings, an empty list too.
func (d *decoder) list(n *yaml.Node, key string) ([]string, error) {
	if r := resolve(n); r.Kind == yaml.SequenceNode && len(r.Content) == 0 {
		return nil, nil
	}
	words, _, err := d.words(n, key)
	return words, err
}

// codes reads the target's own error codes, each mapped onto one of the
// protocol's (targets.ToolMap.Codes).
func (d *decoder) codes(n *yaml.Node, key string) (map[string]string, error) {
	codes := map[string]string{}
	err := d.mapping(n, key, nil, func(own string, v *yaml.Node) error {
		k := key + "." + own
		code, err := d.str(v, k)
		if err != nil {
			return err
		}
		if err := (targets.ToolMap{Codes: map[string]string{own: code}}).Check(); err != nil {
			return d.fault(v, k, err)
		}
		codes[own] = code
		return nil
	})
	return codes, err
}
