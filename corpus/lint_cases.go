package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"slices"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
)

// ids checks that every case has an id and no two cases of the tool share
// one.
func (l *linter) ids(tool string, cs *Cases) {
	file := path.Join(tool, "cases.json")
	seen := map[string]string{}
	check := func(at, id string) {
		if id == "" {
			l.add(file, at, "no id")
			return
		}
		if first, dup := seen[id]; dup {
			l.add(file, at, "duplicate id %q (first at %s)", id, first)
			return
		}
		seen[id] = at
	}
	for i, a := range cs.Accepted {
		check(fmt.Sprintf("/accepted/%d/id", i), a.ID)
	}
	for i, r := range cs.Rejects {
		check(fmt.Sprintf("/rejects/%d/id", i), r.ID)
	}
}

// cases checks every accepted example and every reject; tc is nil when
// tool.json is broken, which leaves only the checks without the tool.
func (l *linter) cases(tool string, tc *toolCheck, cs *Cases) {
	if len(cs.Accepted) == 0 {
		l.add(path.Join(tool, "cases.json"), "/accepted", "no accepted example: nothing shows the tool can succeed, and the generator has nothing to derive variants from")
	}
	for i, a := range cs.Accepted {
		l.accepted(tool, tc, fmt.Sprintf("/accepted/%d", i), a)
	}
	for i, r := range cs.Rejects {
		l.reject(tool, tc, fmt.Sprintf("/rejects/%d", i), r)
	}
}

// accepted checks that the oracle accepts a and projects it to its expect,
// and that expect satisfies the contract.
func (l *linter) accepted(tool string, tc *toolCheck, at string, a Accepted) {
	file := path.Join(tool, "cases.json")
	_, body, okBody := l.caseBody(tool, at, a.Body)
	versions := l.caseVersions(tool, tc, at, a.Versions)
	l.caseArgs(tc, at, a.Arguments)
	want, okWant := l.expect(tool, tc, at, a.Expect)
	if !okBody {
		return
	}
	for _, v := range versions {
		vp := versionPrefix(v, a.Versions)
		out, err := l.c.Evaluate(tc.tool, v, Answer{Status: 200, ContentType: tc.tool.ContentType, Body: body}, a.Arguments, l.now, l.lim)
		switch {
		case err != nil:
			l.add(file, at, "%s%v", vp, err)
		case !out.Accepted:
			l.add(file, at, "%srejected at %s %s, want accepted: %s", vp, out.Gate, out.Reason, out.Detail)
		case okWant && isList(want):
			for i, v := range want.([]any) {
				if !slices.Contains(LeafTexts(out.Data), LeafText(v)) {
					l.add(file, fmt.Sprintf("%s/expect/%d", at, i), "%s%s is no value of the projection %v", vp, LeafText(v), out.Data)
				}
			}
		case okWant:
			if diff := cmp.Diff(want, any(out.Data)); diff != "" {
				l.add(file, at+"/expect", "%sprojects to a different object (-want +got):\n%s", vp, diff)
			}
		}
	}
}

// reject checks that r carries a canary and that the oracle rejects it at
// exactly its gate and reason.
func (l *linter) reject(tool string, tc *toolCheck, at string, r Reject) {
	file := path.Join(tool, "cases.json")
	var raw, body []byte
	okBody := false
	if r.Body == "" && r.Status != 0 {
		raw, body, okBody = l.errorBody(tool, tc, at, r)
	} else {
		raw, body, okBody = l.caseBody(tool, at, r.Body)
	}
	if raw != nil && !bytes.Contains(raw, []byte("{{canary:")) {
		l.add(file, at+"/body", "%s has no {{canary:NAME}} placeholder: nothing would show that none of it reaches the agent", r.Body)
	}
	versions := l.caseVersions(tool, tc, at, r.Versions)
	l.caseArgs(tc, at, r.Arguments)
	if r.Status != 0 && (r.Status < 100 || r.Status > 599) {
		l.add(file, at+"/status", "%d is not an HTTP status (100 to 599)", r.Status)
		return
	}
	if k := protocol.Kind(r.Kind); k != "" && k != protocol.KindMustRefuse && k != protocol.KindIgnorable {
		l.add(file, at+"/kind", "%q is not a kind a reject can be: want %q or %q (docs/protocol.md, \"Levels\")", r.Kind, protocol.KindMustRefuse, protocol.KindIgnorable)
	}
	if !okBody {
		return
	}
	for _, v := range versions {
		vp := versionPrefix(v, r.Versions)
		out, err := l.c.Evaluate(tc.tool, v, Answer{Status: r.StatusCode(), ContentType: tc.tool.ContentType, Body: body}, r.Arguments, l.now, l.lim)
		switch {
		case err != nil:
			l.add(file, at, "%s%v", vp, err)
		case out.Accepted:
			l.add(file, at, "%saccepted by the oracle, want rejected at %s %s", vp, r.Gate, r.Reason)
		case out.Gate != r.Gate:
			l.add(file, at+"/gate", "%srejected at %s %s, want %s %s: %s", vp, out.Gate, out.Reason, r.Gate, r.Reason, out.Detail)
		case out.Reason != r.Reason:
			l.add(file, at+"/reason", "%srejected at %s %s, want %s %s: %s", vp, out.Gate, out.Reason, r.Gate, r.Reason, out.Detail)
		}
	}
}

// versionPrefix names v in a message when the case lists more than one
// version.
func versionPrefix(v string, listed []string) string {
	if len(listed) < 2 {
		return ""
	}
	return "version " + v + ": "
}

// expect renders and parses an accepted example's expect and checks it
// against the contract; it reports whether it is an object, or a list of
// values, to compare with.
func (l *linter) expect(tool string, tc *toolCheck, at string, raw []byte) (any, bool) {
	file := path.Join(tool, "cases.json")
	at += "/expect"
	if len(raw) == 0 {
		l.add(file, at, "no expect")
		return nil, false
	}
	b, err := Render(raw, file+" "+at, l.vars)
	if err != nil {
		l.add(file, at, "%v", err)
		return nil, false
	}
	doc, err := judge.ParseJSON(b, judge.Limits{})
	if list, ok := doc.([]any); ok && err == nil {
		return list, l.valueList(file, at, list)
	}
	data, isObject := doc.(map[string]any)
	if err != nil || !isObject {
		l.add(file, at, "not a JSON object, nor a list of values (%v)", err)
		return nil, false
	}
	if tc != nil && tc.contract != nil {
		if err := tc.contract.schema.Validate(successEnvelope(tool, data)); err != nil {
			l.add(file, at, "does not satisfy the contract: %v", err)
		}
	}
	return data, true
}

// valueList checks an expect written as a list of values (a text result's,
// docs/fixtures.md): at least one, each a string, a number or a boolean.
func (l *linter) valueList(file, at string, list []any) bool {
	if len(list) == 0 {
		l.add(file, at, "an empty list of values: it checks nothing")
		return false
	}
	ok := true
	for i, v := range list {
		switch v.(type) {
		case string, json.Number, bool:
		default:
			l.add(file, fmt.Sprintf("%s/%d", at, i), "%v is not a string, a number or a boolean", v)
			ok = false
		}
	}
	return ok
}

// isList reports whether v is a list of values.
func isList(v any) bool {
	_, ok := v.([]any)
	return ok
}

// LeafText writes a scalar of a parsed document as a text result shows it:
// a string as it is, a number as written, a boolean as true or false, null
// as null.
func LeafText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

// LeafTexts returns the LeafText of every scalar inside v, in no order.
func LeafTexts(v any) []string {
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		default:
			out = append(out, LeafText(x))
		}
	}
	walk(v)
	return out
}
