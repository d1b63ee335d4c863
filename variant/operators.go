package variant

import (
	"fmt"
	"slices"
)

// operator is one way of turning an accepted example into variants: one
// function per body format it applies to (nil: it does not apply).
type operator struct {
	name     string
	describe string
	json     func(*example) []draft
	kv       func(*example) []draft
}

// operators returns the table of every operator, sorted by name. It is
// built on each call, so no package state is shared.
func operators() []operator {
	ops := slices.Concat(
		baselineOperators(), equivalentOperators(), structureOperators(), valueOperators(),
		encodingOperators(), syntaxOperators(), limitOperators(),
		semanticOperators(), transportOperators(), keyValueOperators(),
		rejectOperators(),
	)
	ops = mergeOperators(ops)
	slices.SortFunc(ops, func(a, b operator) int {
		if a.name < b.name {
			return -1
		}
		if a.name > b.name {
			return 1
		}
		return 0
	})
	return ops
}

// mergeOperators joins entries of the same name (one giving the JSON
// function, another the key_value one).
func mergeOperators(ops []operator) []operator {
	var out []operator
	for _, op := range ops {
		i := slices.IndexFunc(out, func(o operator) bool { return o.name == op.name })
		if i < 0 {
			out = append(out, op)
			continue
		}
		if op.json != nil {
			out[i].json = op.json
		}
		if op.kv != nil {
			out[i].kv = op.kv
		}
		if out[i].describe == "" {
			out[i].describe = op.describe
		}
	}
	return out
}

// Operators returns the names of every operator, sorted.
func Operators() []string {
	var names []string
	for _, op := range operators() {
		names = append(names, op.name)
	}
	return names
}

// Describe returns one line on what the operator op does, or "" when there
// is no such operator.
func Describe(op string) string {
	for _, o := range operators() {
		if o.name == op {
			return o.describe
		}
	}
	return ""
}

// selectOperators returns the operators names selects (nil: all), in
// name order.
func selectOperators(names []string) ([]operator, error) {
	all := operators()
	if names == nil {
		return all, nil
	}
	var out []operator
	for _, n := range names {
		if !slices.ContainsFunc(all, func(o operator) bool { return o.name == n }) {
			return nil, fmt.Errorf("generate: %w %q", ErrUnknownOperator, n)
		}
	}
	for _, o := range all {
		if slices.Contains(names, o.name) {
			out = append(out, o)
		}
	}
	return out, nil
}

// baselineOperators is the accepted example itself.
func baselineOperators() []operator {
	same := func(x *example) []draft {
		return []draft{{note: "the accepted example as stored", body: x.raw, expect: x.accepted()}}
	}
	return []operator{{
		name:     "accepted",
		describe: "the accepted example as it is: the adapter accepts it and projects exactly the contract's fields",
		json:     same, kv: same,
	}}
}
