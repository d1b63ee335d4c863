package runconfig

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/targets"
)

// targetKeys are the keys of the target mapping.
var targetKeys = []string{"kind", "command", "url", "image", "path", "health", "env", "files", "capabilities", "rename"}

// target reads the target mapping: the spec and, when the file lists
// them, the capabilities.
func (d *decoder) target(n *yaml.Node) (targets.Spec, *targets.Capabilities, error) {
	var (
		s    targets.Spec
		caps *targets.Capabilities
	)
	err := d.mapping(n, "target", targetKeys, func(name string, v *yaml.Node) (err error) {
		key := "target." + name
		switch name {
		case "kind":
			s.Kind, err = d.kind(v, key)
		case "command":
			s.Command, s.Argv, err = d.command(v, key)
		case "url":
			s.URL, err = d.str(v, key)
		case "image":
			s.Image, err = d.str(v, key)
		case "path":
			s.Path, err = d.endpoint(v, key)
		case "health":
			if s.Health, err = d.str(v, key); err == nil && s.Health != "" && !strings.HasPrefix(s.Health, "/") {
				err = d.faultf(v, key, "%q does not start with /", s.Health)
			}
		case "env":
			s.Env, err = d.env(v, key)
		case "files":
			s.Files, err = d.files(v, key)
		case "capabilities":
			caps, err = d.capabilities(v, key)
		case "rename":
			s.Rename, err = d.rename(v, key)
		}
		return err
	})
	if err != nil {
		return s, nil, err
	}
	return s, caps, d.fits(s)
}

// kind reads one of targets.Kinds().
func (d *decoder) kind(n *yaml.Node, key string) (string, error) {
	s, err := d.str(n, key)
	if err != nil {
		return "", err
	}
	if !slices.Contains(targets.Kinds(), s) {
		hint := ""
		if c := closest(s, targets.Kinds()); c != "" {
			hint = fmt.Sprintf(" (did you mean %q?)", c)
		}
		return "", d.faultf(n, key, "%q is not one of %s%s", s, strings.Join(targets.Kinds(), ", "), hint)
	}
	return s, nil
}

// command reads a command line (split as a shell would) or a list of
// words; each word may name the lane's values.
func (d *decoder) command(n *yaml.Node, key string) (line string, argv []string, err error) {
	words, list, err := d.words(n, key)
	if err != nil {
		return "", nil, err
	}
	if !list {
		line = words[0]
		if words, err = targets.SplitCommand(line); err != nil {
			return "", nil, d.fault(n, key, err)
		}
	}
	for _, w := range words {
		if err := checkLaneTemplate(w); err != nil {
			return "", nil, d.fault(n, key, err)
		}
	}
	if list {
		return "", words, nil
	}
	return line, nil, nil
}

// checkLaneTemplate reports whether s renders over the lane values: it
// parses and names only fields LaneValues has.
func checkLaneTemplate(s string) error {
	_, err := targets.Expand(s, targets.LaneValues{})
	return err
}

// endpoint reads the path of an MCP endpoint.
func (d *decoder) endpoint(n *yaml.Node, key string) (string, error) {
	s, err := d.str(n, key)
	if err == nil && !strings.HasPrefix(s, "/") {
		err = d.faultf(n, key, "want a path that starts with /, such as %s, got %q", targets.DefaultMCPPath, s)
	}
	return s, err
}

// env reads environment variables: any scalar value is taken as written
// and may name the lane's values.
func (d *decoder) env(n *yaml.Node, key string) (map[string]string, error) {
	env := map[string]string{}
	err := d.mapping(n, key, nil, func(name string, v *yaml.Node) error {
		k := key + "." + name
		if name == "" || strings.ContainsAny(name, "= \t\n") {
			return d.faultf(v, k, "%q is not a variable name", name)
		}
		r := resolve(v)
		if r.Kind != yaml.ScalarNode || r.ShortTag() == "!!null" {
			return d.wrongType(v, k, "a string")
		}
		if err := checkLaneTemplate(r.Value); err != nil {
			return d.fault(v, k, err)
		}
		env[name] = r.Value
		return nil
	})
	return env, err
}

// capabilities reads the list of what the target has.
func (d *decoder) capabilities(n *yaml.Node, key string) (*targets.Capabilities, error) {
	var caps targets.Capabilities
	fields := map[string]*bool{
		targets.CapabilityAudit:     &caps.Audit,
		targets.CapabilityPolicy:    &caps.Policy,
		targets.CapabilityApprovals: &caps.Approvals,
	}
	names := []string{targets.CapabilityAudit, targets.CapabilityPolicy, targets.CapabilityApprovals}
	err := d.sequence(n, key, func(i int, item *yaml.Node) error {
		k := fmt.Sprintf("%s[%d]", key, i)
		name, err := d.str(item, k)
		switch p, ok := fields[name]; {
		case err != nil:
			return err
		case !ok:
			hint := ""
			if c := closest(name, names); c != "" {
				hint = fmt.Sprintf(" (did you mean %q?)", c)
			}
			return d.faultf(item, k, "%q is not a capability: want %s%s", name, strings.Join(names, ", "), hint)
		case *p:
			return d.faultf(item, k, "%q is listed twice", name)
		default:
			*p = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &caps, nil
}

// rename reads a map from protocol variable names to the adapter's own
// names ("" leaves the variable out).
func (d *decoder) rename(n *yaml.Node, key string) (map[string]string, error) {
	vars := protocolVars()
	rename := map[string]string{}
	err := d.mapping(n, key, vars, func(name string, v *yaml.Node) (err error) {
		rename[name], err = d.str(v, key+"."+name)
		return err
	})
	return rename, err
}

// protocolVars are the variables the harness gives a target it starts.
func protocolVars() []string {
	return []string{protocol.VarUpstreamURL, protocol.VarListen, protocol.VarAuditFile, protocol.VarPolicyFile,
		protocol.VarMaxBytes, protocol.VarMaxDepth, protocol.VarMaxAttempts, protocol.VarDeadline,
		protocol.VarReadTimeout, protocol.VarFreshness, protocol.VarFutureSkew}
}
