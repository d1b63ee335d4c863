package openapi

import (
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/pb33f/go-yaml"
)

// Operations returns every operation of the description, in document
// order: its method (upper case), its path template as the description
// writes it, and its operationId. A path item whose $ref cannot be
// followed is left out ([Description.Operation] of it says why).
func (d *Description) Operations() []Selector {
	res := newResolver(d)
	defer res.close()
	var out []Selector
	for _, e := range d.entries(res) {
		if e.err == nil {
			out = append(out, e.selector())
		}
	}
	return out
}

// selector returns the Selector of e, its method in upper case.
func (e entry) selector() Selector {
	return Selector{Method: strings.ToUpper(e.method), Path: e.path, OperationID: e.id}
}

// Match returns the operation whose path template matches a request of
// method to path (decoded, as net/url's URL.Path holds it), and the
// values of its path parameters by name. The description's base path
// (the path of servers[0].url, its variables at their defaults; Swagger's
// basePath) is stripped first when path starts with it, and path as it
// is is tried next. Of the templates that match, one whose first segment
// that differs is literal wins over one with a {param} there (/pets/count
// over /pets/{petId}); then the first in document order. A {param} takes
// a non-empty value within one segment.
func (d *Description) Match(method, path string) (Selector, map[string]string, bool) {
	res := newResolver(d)
	defer res.close()
	var ops []entry
	for _, e := range d.entries(res) {
		if e.err == nil && strings.EqualFold(e.method, method) {
			ops = append(ops, e)
		}
	}
	for _, p := range d.requestPaths(path) {
		if e, values, ok := bestMatch(ops, p); ok {
			return e.selector(), values, true
		}
	}
	return Selector{}, nil, false
}

// requestPaths returns the paths a request path is matched as: without
// the base path when it starts with it, then as it is.
func (d *Description) requestPaths(path string) []string {
	base := strings.TrimSuffix(d.basePath(), "/")
	if base == "" {
		return []string{path}
	}
	if rest, ok := strings.CutPrefix(path, base); ok && (rest == "" || strings.HasPrefix(rest, "/")) {
		if rest == "" {
			rest = "/"
		}
		return []string{rest, path}
	}
	return []string{path}
}

// basePath returns the path every operation's path is below: Swagger's
// basePath, or the path of the first server's URL (3.x) with its
// variables at their defaults; "" for none.
func (d *Description) basePath() string {
	if d.dialect == oas2 {
		return stringOf(d.root, "basePath")
	}
	servers := deref(lookup(d.root, "servers"))
	if servers == nil || servers.Kind != yaml.SequenceNode || len(servers.Content) == 0 {
		return ""
	}
	server := servers.Content[0]
	raw := templateVar.ReplaceAllStringFunc(stringOf(server, "url"), func(v string) string {
		return stringOf(lookup(lookup(server, "variables"), v[1:len(v)-1]), "default")
	})
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Path
}

// bestMatch returns the operation of ops whose template matches path,
// the most literal first, and its path values.
func bestMatch(ops []entry, path string) (entry, map[string]string, bool) {
	var best entry
	var bestValues map[string]string
	var bestRank []int
	for _, e := range ops {
		values, rank, ok := matchTemplate(e.path, path)
		if ok && (bestRank == nil || slices.Compare(rank, bestRank) > 0) {
			best, bestValues, bestRank = e, values, rank
		}
	}
	return best, bestValues, bestRank != nil
}

// Segment kinds, by how literal: a later kind wins.
const (
	segmentParam   = iota // {param}
	segmentMixed          // literal text and a {param}: {name}.json
	segmentLiteral        // literal text
)

// matchTemplate matches path against a path template segment by
// segment: the values of its parameters, and the kind of each segment.
func matchTemplate(template, path string) (map[string]string, []int, bool) {
	tsegs := strings.Split(template, "/")
	psegs := strings.Split(path, "/")
	if len(tsegs) != len(psegs) {
		return nil, nil, false
	}
	values := map[string]string{}
	rank := make([]int, len(tsegs))
	for i, t := range tsegs {
		names := templateVar.FindAllStringSubmatch(t, -1)
		if len(names) == 0 {
			if t != psegs[i] {
				return nil, nil, false
			}
			rank[i] = segmentLiteral
			continue
		}
		if len(names) == 1 && names[0][0] == t {
			if psegs[i] == "" {
				return nil, nil, false
			}
			values[names[0][1]] = psegs[i]
			rank[i] = segmentParam
			continue
		}
		m := segmentPattern(t).FindStringSubmatch(psegs[i])
		if m == nil {
			return nil, nil, false
		}
		for j, n := range names {
			values[n[1]] = m[j+1]
		}
		rank[i] = segmentMixed
	}
	return values, rank, true
}

// segmentPattern returns the regular expression of one template segment:
// its literal text as it is, each {param} one or more characters.
func segmentPattern(segment string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	last := 0
	for _, loc := range templateVar.FindAllStringIndex(segment, -1) {
		b.WriteString(regexp.QuoteMeta(segment[last:loc[0]]))
		b.WriteString("(.+?)")
		last = loc[1]
	}
	b.WriteString(regexp.QuoteMeta(segment[last:]))
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}
