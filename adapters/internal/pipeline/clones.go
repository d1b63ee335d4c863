package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/toolcert/toolcert/gate"
)

// ErrClone is wrapped by [New]'s error for a clone it cannot serve (see
// [WithToolClones]).
var ErrClone = errors.New("tool clone")

// WithToolClones serves, besides the reference tools, each key of clones
// as a copy of the read tool its value names: the same arguments, upstream
// request, versions and checks, answering with its own name in the
// envelope and the audit event. Without a policy file the clones join the
// default policy as their originals are; with one, the policy must
// allowlist them. It exists for corpora of many tools, such as the scale
// benchmark's. [New] fails, wrapping ErrClone, when a value is not a read
// tool of the reference or a key is already a tool's name.
func WithToolClones(clones map[string]string) Option {
	return func(s *settings) { s.clones = maps.Clone(clones) }
}

// addClones adds the clones of the settings to a's tools, in name order,
// and to its policy when that is the default one.
func (a *Adapter) addClones() error {
	for _, name := range slices.Sorted(maps.Keys(a.s.clones)) {
		ct, err := a.clone(name, a.s.clones[name])
		if err != nil {
			return err
		}
		a.tools[name] = ct
		if a.cfg.Policy == nil && a.cfg.PolicyFile == "" {
			a.policy.Allowlist = append(a.policy.Allowlist, name)
			a.policy.Grants[name] = a.policy.Grants[a.s.clones[name]]
		}
	}
	a.names = slices.Sorted(maps.Keys(a.tools))
	return nil
}

// clone returns the read tool original under name, its contract's tool
// constant changed to name.
func (a *Adapter) clone(name, original string) (compiledTool, error) {
	ct, ok := a.tools[original]
	switch {
	case !ok || ct.kind != kindRead || a.s.clones[original] != "":
		return ct, fmt.Errorf("%w %q: %q is not a read tool of the reference", ErrClone, name, original)
	case a.tools[name].name != "":
		return ct, fmt.Errorf("%w %q: the name is taken", ErrClone, name)
	}
	contract, err := cloneContract(original, name)
	if err != nil {
		return ct, fmt.Errorf("%w %q: %w", ErrClone, name, err)
	}
	ct.name = name
	ct.schemas.contract = contract
	return ct, nil
}

// cloneContract compiles the pinned contract of original with every JSON
// string that is exactly original's name (the envelope's tool constant)
// replaced by name.
func cloneContract(original, name string) (*gate.Schema, error) {
	b, err := Schema(original, "contract")
	if err != nil {
		return nil, err
	}
	from, _ := json.Marshal(original)
	to, err := json.Marshal(name)
	if err != nil {
		return nil, err
	}
	return gate.Compile(name+".contract", bytes.ReplaceAll(b, from, to))
}
