// Package testpolicy gives the adapters' tests the built-in corpus's policy
// (fixtures/policy.json, the policy the harness hands every target it
// starts) and edited copies of it, so that no test keeps a copy of its own.
package testpolicy

import (
	"encoding/json"
	"io/fs"
	"slices"

	"github.com/toolcert/toolcert"
)

// Builtin returns the built-in policy as text.
func Builtin() string {
	raw, err := fs.ReadFile(toolcert.Fixtures(), "policy.json")
	if err != nil {
		panic("testpolicy: " + err.Error()) // embedded: only a broken build lacks it
	}
	return string(raw)
}

// With returns the built-in policy with each edit applied to its JSON
// object, in order.
func With(edits ...func(p map[string]any)) string {
	var p map[string]any
	if err := json.Unmarshal([]byte(Builtin()), &p); err != nil {
		panic("testpolicy: the built-in policy: " + err.Error())
	}
	for _, edit := range edits {
		edit(p)
	}
	b, err := json.Marshal(p)
	if err != nil {
		panic("testpolicy: " + err.Error())
	}
	return string(b)
}

// Allow puts tool on the allowlist.
func Allow(tool string) func(map[string]any) {
	return func(p map[string]any) { p["allowlist"] = append(p["allowlist"].([]any), tool) }
}

// Disallow takes tool off the allowlist.
func Disallow(tool string) func(map[string]any) {
	return func(p map[string]any) {
		p["allowlist"] = slices.DeleteFunc(p["allowlist"].([]any), func(v any) bool { return v == tool })
	}
}

// Grant makes tool need grant.
func Grant(tool, grant string) func(map[string]any) {
	return func(p map[string]any) { p["grants"].(map[string]any)[tool] = grant }
}

// Session adds (or replaces) the session of token.
func Session(token, subject, account string, grants ...string) func(map[string]any) {
	return func(p map[string]any) {
		p["sessions"].(map[string]any)[token] = map[string]any{"subject": subject, "account": account, "grants": grants}
	}
}

// AddGrant gives the existing session of token one more grant.
func AddGrant(token, grant string) func(map[string]any) {
	return func(p map[string]any) {
		s := p["sessions"].(map[string]any)[token].(map[string]any)
		s["grants"] = append(s["grants"].([]any), grant)
	}
}

// Ask makes calls of tool need a human's approval.
func Ask(tool string) func(map[string]any) {
	return func(p map[string]any) { p["ask"] = append(p["ask"].([]any), tool) }
}
