package record

import (
	"fmt"
	"strconv"
	"strings"
)

// routePointer is where route inferences point: the binding's request
// path (tool.json, docs/fixtures.md).
const routePointer = "/request/path"

// request is what route inference sees of one recorded answer.
type request struct{ method, path string }

// routeShape is what every request of one route shares: a method and a
// number of path segments (-1: a path that does not decode).
type routeShape struct {
	method string
	n      int
}

// inferRoute infers the route the requests share: the most frequent
// shape (the first seen on a tie), a literal for every segment equal in
// all its paths, an argument for every other. It returns nil when no
// request has a path that decodes.
func inferRoute(reqs []request) (*route, []Inference) {
	kept, infs := commonShape(reqs)
	if kept.n < 0 {
		return nil, []Inference{{routePointer, "no answer recorded: no route to infer"}}
	}
	var paths [][]string
	for _, rq := range reqs {
		if segs, ok := splitPath(rq.path); ok && len(segs) == kept.n && rq.method == kept.method {
			paths = append(paths, segs)
		}
	}
	rt, more := argumentsOf(paths)
	rt.method = kept.method
	return rt, append(infs, more...)
}

// commonShape returns the most frequent shape of the requests whose path
// decodes (n -1 when there is none) and, when the requests do not all
// share it, an Inference saying so.
func commonShape(reqs []request) (routeShape, []Inference) {
	count := map[routeShape]int{}
	var order []routeShape
	for _, rq := range reqs {
		sh := routeShape{rq.method, -1}
		if segs, ok := splitPath(rq.path); ok {
			sh.n = len(segs)
		}
		if count[sh] == 0 {
			order = append(order, sh)
		}
		count[sh]++
	}
	kept := routeShape{n: -1}
	for _, sh := range order {
		if sh.n >= 0 && count[sh] > count[kept] {
			kept = sh
		}
	}
	if len(order) < 2 || kept.n < 0 {
		return kept, nil
	}
	what := fmt.Sprintf("ambiguous: the answers have %d request shapes; the route is the most frequent, %s with %d path segments (%d of %d answers), the other answers got a Note",
		len(order), kept.method, kept.n, count[kept], len(reqs))
	return kept, []Inference{{routePointer, what}}
}

// argumentsOf returns the route of paths, all with the same number of
// segments: a segment that varies is an argument, named by argName.
func argumentsOf(paths [][]string) (*route, []Inference) {
	values := distinctSegments(paths)
	rt := &route{segments: make([]segment, len(values))}
	if len(distinctPaths(paths)) < 2 {
		for i, v := range values {
			rt.segments[i] = segment{literal: v[0]}
		}
		what := fmt.Sprintf("one path only (%d answers): nothing shows which segments are arguments, every segment is literal", len(paths))
		return rt, []Inference{{routePointer, what}}
	}
	var infs []Inference
	used := map[string]bool{}
	fallbacks := 0
	for i, v := range values {
		if len(v) == 1 {
			rt.segments[i] = segment{literal: v[0]}
			continue
		}
		name := argName(rt.segments[:i], used, &fallbacks)
		rt.segments[i] = segment{arg: name}
		infs = append(infs, Inference{routePointer, fmt.Sprintf("{%s} varied: %s", name, listValues(v))})
	}
	return rt, infs
}

// distinctSegments returns, per segment index, the distinct values the
// paths had there, in first-seen order.
func distinctSegments(paths [][]string) [][]string {
	out := make([][]string, len(paths[0]))
	for i := range out {
		seen := map[string]bool{}
		for _, p := range paths {
			if !seen[p[i]] {
				seen[p[i]] = true
				out[i] = append(out[i], p[i])
			}
		}
	}
	return out
}

// distinctPaths returns the set of distinct paths.
func distinctPaths(paths [][]string) map[string]bool {
	out := map[string]bool{}
	for _, p := range paths {
		out[fmt.Sprintf("%q", p)] = true
	}
	return out
}

// argName names the argument after before, the segments already
// decided: the literal right before it, singularised, unless there is
// none or the name is taken; then "arg1", "arg2" and so on.
func argName(before []segment, used map[string]bool, fallbacks *int) string {
	name := ""
	if n := len(before); n > 0 && before[n-1].arg == "" {
		name = identifier(singular(before[n-1].literal))
	}
	for name == "" || used[name] {
		*fallbacks++
		name = "arg" + strconv.Itoa(*fallbacks)
	}
	used[name] = true
	return name
}

// singular returns word in lower case without its plural ending, simply:
// "policies" -> "policy", "branches" -> "branch", "pulls" -> "pull"; a
// word ending in "ss", "us" or "is" is left as it is.
func singular(word string) string {
	w := strings.ToLower(word)
	switch {
	case len(w) > 3 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case hasAnySuffix(w, "xes", "ches", "shes", "sses"):
		return w[:len(w)-2]
	case len(w) > 1 && strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// hasAnySuffix reports whether s ends with one of suffixes.
func hasAnySuffix(s string, suffixes ...string) bool {
	for _, suf := range suffixes {
		if strings.HasSuffix(s, suf) {
			return true
		}
	}
	return false
}

// identifier returns s as an argument name, every byte outside
// [a-z0-9_] turned into "_", or "" when that does not make one.
func identifier(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_') {
			b[i] = '_'
		}
	}
	if !argNamePattern.MatchString(string(b)) || strings.Trim(string(b), "_") == "" {
		return ""
	}
	return string(b)
}
