package corpus

import (
	"github.com/toolcert/toolcert/internal/judge"

	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"path"
	"slices"
	"strings"
)

// version checks one upstream version of t: its schema file and the
// pointers of its binding. It reports whether Evaluate can run it. args
// are the argument properties (nil when the argument schema is broken).
func (l *linter) version(t *Tool, name string, args map[string]any) bool {
	at := "/versions/" + judge.EscapePointerToken(name)
	v := t.Versions[name]
	sch := l.upstreamSchema(t, v, at)
	ok := l.pointers(t, v, at, sch)
	for _, ptr := range slices.Sorted(maps.Keys(v.Bind)) {
		if _, known := args[v.Bind[ptr]]; !known && args != nil {
			l.add(path.Join(t.Name, "tool.json"), at+"/bind/"+judge.EscapePointerToken(ptr), "%q is not an argument property", v.Bind[ptr])
			ok = false
		}
	}
	return sch != nil && ok
}

// upstreamSchema checks the schema file of v and returns it compiled, or
// nil.
func (l *linter) upstreamSchema(t *Tool, v Version, at string) *compiledSchema {
	file := path.Join(t.Name, "tool.json")
	if v.Schema == "" {
		l.add(file, at+"/schema", "no schema file")
		return nil
	}
	if !fs.ValidPath(v.Schema) {
		l.add(file, at+"/schema", "%q is not a path inside the tool's folder", v.Schema)
		return nil
	}
	name := path.Join(t.Name, v.Schema)
	if _, err := l.c.Fixture(name); errors.Is(err, fs.ErrNotExist) {
		l.add(file, at+"/schema", "%s does not exist", v.Schema)
		return nil
	}
	return l.schemaFile(name)
}

// pointers checks the project, integers, bind and fresh entries of v: each
// pointer starts with "/" and names a property sch declares (best effort;
// sch nil skips that), but for a projected field, which may also take the
// whole answer (""), a list say. It reports whether all are well formed.
func (l *linter) pointers(t *Tool, v Version, at string, sch *compiledSchema) bool {
	file := path.Join(t.Name, "tool.json")
	ok := true
	check := func(where, ptr string, whole bool) {
		if ptr == "" && whole {
			return // a projected field may take the whole answer
		}
		if ptr == "" || !judge.ValidPointer(ptr) {
			l.add(file, where, "%q is not a JSON pointer to a field (it must start with /)", ptr)
			ok = false
			return
		}
		if sch != nil && !declares(sch.doc, sch.doc, judge.PointerTokens(ptr), 0) {
			l.add(file, where, "%s is not a property %s declares", ptr, v.Schema)
		}
	}
	for _, field := range slices.Sorted(maps.Keys(v.Project)) {
		check(at+"/project/"+judge.EscapePointerToken(field), v.Project[field], true)
	}
	for i, field := range v.Integers {
		if _, projected := v.Project[field]; !projected {
			l.add(file, fmt.Sprintf("%s/integers/%d", at, i), "%q is not a projected field", field)
			ok = false
		}
	}
	for i, field := range v.Optional {
		if _, projected := v.Project[field]; !projected {
			l.add(file, fmt.Sprintf("%s/optional/%d", at, i), "%q is not a projected field", field)
			ok = false
		}
	}
	for _, field := range slices.Sorted(maps.Keys(v.Project)) {
		if strings.HasPrefix(field, "/") && (!judge.ValidPointer(field) || field == "/") {
			l.add(file, at+"/project/"+judge.EscapePointerToken(field), "the nested field %q is not a JSON pointer to a member", field)
			ok = false
		}
	}
	for _, ptr := range slices.Sorted(maps.Keys(v.Bind)) {
		check(at+"/bind/"+judge.EscapePointerToken(ptr), ptr, false)
	}
	for i, ptr := range v.Fresh {
		check(fmt.Sprintf("%s/fresh/%d", at, i), ptr, false)
	}
	return ok
}

// maxSchemaHops bounds the walk of declares through $ref and applicators.
const maxSchemaHops = 64

// declares reports whether the schema node (of document root) declares the
// property path tokens: through properties, items, allOf, anyOf, oneOf and
// local $refs. It is a best effort: patternProperties and conditionals are
// not followed.
func declares(root, node any, tokens []string, hops int) bool {
	if len(tokens) == 0 {
		return true
	}
	m, ok := node.(map[string]any)
	if !ok || hops > maxSchemaHops {
		return false
	}
	if ref, ok := m["$ref"].(string); ok && strings.HasPrefix(ref, "#") {
		if target, ok := judge.Lookup(root, ref[1:]); ok && declares(root, target, tokens, hops+1) {
			return true
		}
	}
	if props, ok := m["properties"].(map[string]any); ok {
		if sub, ok := props[tokens[0]]; ok && declares(root, sub, tokens[1:], hops+1) {
			return true
		}
	}
	if items, ok := m["items"]; ok {
		if _, isIndex := judge.PointerIndex(tokens[0], math.MaxInt); isIndex && declares(root, items, tokens[1:], hops+1) {
			return true
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		subs, _ := m[k].([]any)
		for _, s := range subs {
			if declares(root, s, tokens, hops+1) {
				return true
			}
		}
	}
	return false
}
