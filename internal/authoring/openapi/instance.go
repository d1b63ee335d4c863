package openapi

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/pb33f/go-yaml"
)

// Limits of a value read from the description (an example, a default,
// an enum).
const (
	// maxInstanceDepth bounds its nesting: the judge refuses deeper
	// documents.
	maxInstanceDepth = 200
	// maxInstanceNodes bounds its size: YAML aliases can make a small
	// text stand for an enormous value.
	maxInstanceNodes = 1 << 20
)

// errNotJSON is wrapped by instance for a value JSON cannot hold.
var errNotJSON = errors.New("not representable in JSON")

// jsonNumber matches a number literal as RFC 8259 writes it.
var jsonNumber = regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$`)

// instance returns the JSON value of YAML node n: objects keep their member
// order, numbers their literal when it is already JSON. A value JSON cannot
// hold (.inf, .nan, a mapping key that is not a scalar) is an error.
func instance(n *yaml.Node) (any, error) {
	budget := maxInstanceNodes
	return instanceAt(n, 0, &budget)
}

// instanceAt converts n, depth levels deep; budget counts the nodes
// still allowed.
func instanceAt(n *yaml.Node, depth int, budget *int) (any, error) {
	if *budget--; *budget < 0 {
		return nil, fmt.Errorf("value has more than %d members and items", maxInstanceNodes)
	}
	if depth > maxInstanceDepth {
		return nil, fmt.Errorf("value nests deeper than %d levels", maxInstanceDepth)
	}
	n = deref(n)
	if n == nil {
		return nil, fmt.Errorf("alias chain: %w", errNotJSON)
	}
	switch n.Kind {
	case yaml.MappingNode:
		return objectInstance(n, depth, budget)
	case yaml.SequenceNode:
		items := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := instanceAt(c, depth+1, budget)
			if err != nil {
				return nil, err
			}
			items = append(items, v)
		}
		return items, nil
	case yaml.ScalarNode:
		return scalarInstance(n)
	}
	return nil, fmt.Errorf("yaml node kind %v: %w", n.Kind, errNotJSON)
}

// objectInstance converts mapping n.
func objectInstance(n *yaml.Node, depth int, budget *int) (any, error) {
	ps, err := pairs(n, "value")
	if err != nil {
		return nil, err
	}
	o := &object{members: make([]member, 0, len(ps))}
	for _, p := range ps {
		v, err := instanceAt(p.val, depth+1, budget)
		if err != nil {
			return nil, err
		}
		o.members = append(o.members, member{p.key, v})
	}
	return o, nil
}

// scalarInstance converts scalar n by its resolved tag; a tag JSON has no
// counterpart for (!!timestamp, !!binary, a custom one) gives the text.
func scalarInstance(n *yaml.Node) (any, error) {
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		b, err := strconv.ParseBool(n.Value)
		if err != nil {
			return n.Value, nil
		}
		return b, nil
	case "!!int":
		return intLiteral(n.Value)
	case "!!float":
		return floatLiteral(n.Value)
	}
	return n.Value, nil
}

// intLiteral returns the JSON literal of a YAML integer (0x1F, 0o17, +3).
func intLiteral(s string) (number, error) {
	if jsonNumber.MatchString(s) {
		return number(s), nil
	}
	if i, ok := new(big.Int).SetString(strings.TrimPrefix(s, "+"), 0); ok {
		return number(i.String()), nil
	}
	return "", fmt.Errorf("integer %q: %w", s, errNotJSON)
}

// floatLiteral returns the JSON literal of a YAML float (.5, 1., +1e3);
// .inf and .nan are errors.
func floatLiteral(s string) (number, error) {
	if jsonNumber.MatchString(s) {
		return number(s), nil
	}
	f, ok := new(big.Float).SetPrec(200).SetString(strings.ReplaceAll(strings.TrimPrefix(s, "+"), "_", ""))
	if !ok || f.IsInf() {
		return "", fmt.Errorf("number %q: %w", s, errNotJSON)
	}
	return number(f.Text('g', -1)), nil
}
