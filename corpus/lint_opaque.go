package corpus

import (
	"io/fs"
	"path"
	"slices"
	"strings"
)

// opaqueIDs are identifiers the protocol leaves opaque beyond its pattern
// (docs/protocol.md, "The agent's side"): each matches the protocol's
// pattern for its member, so a contract must take all of them alike.
var opaqueIDs = map[string][]string{
	"approval_id": {"apr.A1b2C3d4E5f6G7h8I9j0", "0-_.aaaa", strings.Repeat("Z", 64)},
	"request_id":  {"req.J7q94MkP", "0_._____", strings.Repeat("9", 64)},
}

// callSide checks the contracts of the call-side tools: folders that hold
// a contract.json but no tool.json (their calls never reach a corpus
// body). Each must compile, be closed and leave ids opaque.
func (l *linter) callSide(tools []string) {
	entries, err := fs.ReadDir(l.c.fsys, ".")
	if err != nil {
		return // Tools reported it
	}
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || slices.Contains(tools, name) {
			continue
		}
		if _, err := fs.Stat(l.c.fsys, path.Join(name, "contract.json")); err != nil {
			continue
		}
		if s := l.schemaFile(path.Join(name, "contract.json")); s != nil {
			l.opaque(name, s)
		}
	}
}

// opaque checks that the contract of tool takes every protocol-valid
// request_id and approval_id alike: an envelope the contract accepts with
// one must stay accepted with each other one. A contract that pins an
// adapter's own id shape fails a correct adapter that chose another.
func (l *linter) opaque(tool string, contract *compiledSchema) {
	file := path.Join(tool, "contract.json")
	for _, outcome := range []string{"pending_approval", "failure"} {
		for member, ids := range opaqueIDs {
			if member == "approval_id" && outcome != "pending_approval" {
				continue
			}
			accepted := map[bool][]string{}
			for _, id := range ids {
				env := opaqueEnvelope(tool, outcome)
				env[member] = id
				ok := contract.schema.Validate(env) == nil
				accepted[ok] = append(accepted[ok], id)
			}
			if len(accepted[true]) > 0 && len(accepted[false]) > 0 {
				l.add(file, "", "a %s envelope is accepted with %s %q but not %q: the protocol leaves %s opaque beyond its pattern (docs/protocol.md, \"The agent's side\")",
					outcome, member, accepted[true][0], accepted[false][0], member)
			}
		}
	}
}

// opaqueEnvelope returns the smallest envelope of outcome for tool that a
// contract may accept; the ids are set by the caller.
func opaqueEnvelope(tool, outcome string) map[string]any {
	env := map[string]any{"tool": tool, "request_id": "req.J7q94MkP", "outcome": outcome}
	switch outcome {
	case "pending_approval":
		env["approval_id"] = "apr.A1b2C3d4E5f6G7h8I9j0"
	case "failure":
		env["error"] = map[string]any{"code": "UPSTREAM_UNAVAILABLE", "retryable": true}
	}
	return env
}
