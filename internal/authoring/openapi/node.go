package openapi

import (
	"fmt"
	"strconv"

	"github.com/pb33f/go-yaml"
)

// maxAliasHops bounds a chain of YAML aliases.
const maxAliasHops = 64

// pair is one member of a YAML mapping.
type pair struct {
	key string
	val *yaml.Node
}

// deref follows YAML aliases and document nodes to the node they stand for.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && i < maxAliasHops; i++ {
		switch {
		case n.Kind == yaml.AliasNode:
			n = n.Alias
		case n.Kind == yaml.DocumentNode && len(n.Content) == 1:
			n = n.Content[0]
		default:
			return n
		}
	}
	return n
}

// pairs returns the members of mapping n in order, YAML merge keys ("<<")
// expanded (a member written in n wins over a merged one). A member name
// written twice is an error; at names n in it.
func pairs(n *yaml.Node, at string) ([]pair, error) {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: not a mapping", at)
	}
	var own, merged []pair
	seen := make(map[string]bool, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := deref(n.Content[i])
		if k.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("%s: a member name is not a scalar", at)
		}
		if k.ShortTag() == "!!merge" {
			m, err := mergedPairs(n.Content[i+1], at)
			if err != nil {
				return nil, err
			}
			merged = append(merged, m...)
			continue
		}
		if seen[k.Value] {
			return nil, fmt.Errorf("%s: member %q is written twice", at, k.Value)
		}
		seen[k.Value] = true
		own = append(own, pair{k.Value, n.Content[i+1]})
	}
	for _, p := range merged {
		if !seen[p.key] {
			seen[p.key] = true
			own = append(own, p)
		}
	}
	return own, nil
}

// mergedPairs returns the members a merge key brings: one mapping or a
// sequence of them, the first one naming a member winning.
func mergedPairs(v *yaml.Node, at string) ([]pair, error) {
	v = deref(v)
	sources := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		sources = v.Content
	}
	var out []pair
	for _, s := range sources {
		p, err := pairs(s, at)
		if err != nil {
			return nil, fmt.Errorf("merge key: %w", err)
		}
		out = append(out, p...)
	}
	return out, nil
}

// lookup returns the value of member key of mapping n, or nil. Duplicate
// names are not checked: lookup serves navigation, pairs serves reading.
func lookup(n *yaml.Node, key string) *yaml.Node {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := deref(n.Content[i])
		if k.Kind == yaml.ScalarNode && k.Value == key && k.ShortTag() != "!!merge" {
			return n.Content[i+1]
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if deref(n.Content[i]).ShortTag() == "!!merge" {
			if v := lookupMerged(n.Content[i+1], key); v != nil {
				return v
			}
		}
	}
	return nil
}

// lookupMerged looks key up in the mappings a merge key brings.
func lookupMerged(v *yaml.Node, key string) *yaml.Node {
	v = deref(v)
	if v.Kind == yaml.MappingNode {
		return lookup(v, key)
	}
	for _, s := range v.Content {
		if r := lookup(s, key); r != nil {
			return r
		}
	}
	return nil
}

// step returns the member or item tok of n, or nil.
func step(n *yaml.Node, tok string) *yaml.Node {
	n = deref(n)
	if n == nil {
		return nil
	}
	if n.Kind == yaml.SequenceNode {
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i >= len(n.Content) || strconv.Itoa(i) != tok {
			return nil
		}
		return n.Content[i]
	}
	return lookup(n, tok)
}

// scalar returns the value of scalar n and true, or "" and false.
func scalar(n *yaml.Node) (string, bool) {
	n = deref(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return "", false
	}
	return n.Value, true
}

// stringOf returns the value of member key of n when it is a scalar.
func stringOf(n *yaml.Node, key string) string {
	s, _ := scalar(lookup(n, key))
	return s
}

// boolOf reports whether member key of n is the boolean true.
func boolOf(n *yaml.Node, key string) bool {
	b, ok := isBool(lookup(n, key))
	return ok && b
}

// isBool reports whether n is a YAML boolean, and which.
func isBool(n *yaml.Node) (value, ok bool) {
	n = deref(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		return false, false
	}
	b, err := strconv.ParseBool(n.Value)
	return b, err == nil
}
