package scaffold

import (
	"slices"
	"strconv"
	"strings"
)

// markUnkept returns instance v of schema s (at toks of the answer) with
// a canary placeholder for every string the agent does not keep where
// the schema takes any string, but at the pointers of keep (members the
// owner may bind to an argument, whose value must stay): if one of them
// reaches the agent, the harness sees it. names counts the canary names
// used, to keep them unique.
func (d schemaDoc) markUnkept(v any, s *object, toks []string, p *projection, keep map[string]bool, names map[string]int) any {
	if p.kept(toks) || keep[joinPointer(toks)] {
		return v
	}
	switch t := v.(type) {
	case string:
		if !plainString(d.resolveOrNil(s)) {
			return v
		}
		return placeholder("{{canary:" + canaryName(toks, names) + "}}")
	case *object:
		out := newObject()
		for _, k := range t.keys {
			var sub *object
			if s != nil {
				sub, _ = d.member(s, k)
			}
			out.set(k, d.markUnkept(t.vals[k], sub, append(slices.Clone(toks), k), p, keep, names))
		}
		return out
	case []any:
		var items *object
		if s != nil {
			items = d.items(s)
		}
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = d.markUnkept(x, items, append(slices.Clone(toks), strconv.Itoa(i)), p, keep, names)
		}
		return out
	}
	return v
}

// resolveOrNil resolves s, nil staying nil.
func (d schemaDoc) resolveOrNil(s *object) *object {
	if s == nil {
		return nil
	}
	return d.resolve(s)
}

// canaryName names the canary of the member at toks: its tokens, cleaned,
// joined with "_", and a number when the name is taken.
func canaryName(toks []string, names map[string]int) string {
	name := strings.Trim(nameChars.ReplaceAllString(strings.Join(toks, "_"), "_"), "_")
	if name == "" {
		name = "value"
	}
	names[name]++
	if n := names[name]; n > 1 {
		name += "_" + strconv.Itoa(n)
	}
	return name
}
