package openapi

import (
	"fmt"
	"strings"

	"github.com/pb33f/go-yaml"
)

// maxCandidates is how many close operations a miss lists.
const maxCandidates = 5

// httpMethods are the members of a path item that are operations.
var httpMethods = wordSet("get", "put", "post", "delete", "options", "head", "patch", "trace", "query")

// Selector names one operation: by Method and Path, the path template
// exactly as the description writes it ("GET",
// "/repos/{owner}/{repo}/pulls/{pull_number}/reviews"; the method in any
// case), or by OperationID. With OperationID set, Method and Path, when
// set, must also match.
type Selector struct {
	Method, Path, OperationID string
}

// String returns the selector as a message names it.
func (s Selector) String() string {
	var parts []string
	if s.Method != "" || s.Path != "" {
		parts = append(parts, strings.TrimSpace(strings.ToUpper(s.Method)+" "+s.Path))
	}
	if s.OperationID != "" {
		parts = append(parts, "operationId "+s.OperationID)
	}
	return strings.Join(parts, " ")
}

// entry is one operation of the description.
type entry struct {
	method, path, id string
	item             loc // the path item, after its $ref
	itemNode         *yaml.Node
	op               loc
	opNode           *yaml.Node
	err              error // the path item's $ref could not be followed
}

// label names e in a candidate list: "GET /path (operationId)".
func (e entry) label() string {
	s := strings.ToUpper(e.method) + " " + e.path
	if e.id != "" {
		s += " (" + e.id + ")"
	}
	return s
}

// find returns the one operation sel names.
func (d *Description) find(res *resolver, sel Selector) (entry, error) {
	if sel.OperationID == "" && (sel.Method == "" || sel.Path == "") {
		return entry{}, fmt.Errorf("select operation: %w: give a method and a path, or an operationId", ErrNoOperation)
	}
	all := d.entries(res)
	var matches []entry
	for _, e := range all {
		if sel.matches(e) {
			matches = append(matches, e)
		}
	}
	switch len(matches) {
	case 1:
		if matches[0].err != nil {
			return entry{}, fmt.Errorf("select operation %s: %w", sel, matches[0].err)
		}
		return matches[0], nil
	case 0:
		return entry{}, &SelectError{Selector: sel, Candidates: closestLabels(sel, all), Err: ErrNoOperation}
	}
	labels := make([]string, len(matches))
	for i, m := range matches {
		labels[i] = m.label()
	}
	return entry{}, &SelectError{Selector: sel, Candidates: labels, Err: ErrAmbiguous}
}

// matches reports whether e is the operation s names.
func (s Selector) matches(e entry) bool {
	if s.OperationID != "" && e.id != s.OperationID {
		return false
	}
	if s.Method != "" && !strings.EqualFold(s.Method, e.method) {
		return false
	}
	return s.Path == "" || s.Path == e.path
}

// entries lists every operation, in document order. A path item whose
// $ref cannot be followed is listed with its error, as one operation.
func (d *Description) entries(res *resolver) []entry {
	paths := deref(lookup(d.root, "paths"))
	if paths == nil || paths.Kind != yaml.MappingNode {
		return nil
	}
	var out []entry
	for i := 0; i+1 < len(paths.Content); i += 2 {
		path, _ := scalar(paths.Content[i])
		if strings.HasPrefix(path, "x-") {
			continue
		}
		at := res.at(childPointer("/paths", path))
		item := deref(paths.Content[i+1])
		if ref, ok := scalar(lookup(item, "$ref")); ok {
			var err error
			if at, item, err = res.resolve(at.child("$ref"), ref); err != nil {
				out = append(out, entry{method: "?", path: path, err: err})
				continue
			}
		}
		out = append(out, operationsOf(path, at, item)...)
	}
	return out
}

// operationsOf lists the operations of path item n at at.
func operationsOf(path string, at loc, n *yaml.Node) []entry {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	var out []entry
	for i := 0; i+1 < len(n.Content); i += 2 {
		method, _ := scalar(n.Content[i])
		if !httpMethods[method] {
			continue
		}
		op := deref(n.Content[i+1])
		out = append(out, entry{
			method: method, path: path, id: stringOf(op, "operationId"),
			item: at, itemNode: n, op: at.child(method), opNode: op,
		})
	}
	return out
}

// closestLabels returns the labels of the operations closest to sel, at
// most maxCandidates.
func closestLabels(sel Selector, all []entry) []string {
	want := strings.ToUpper(sel.Method) + " " + sel.Path
	if sel.OperationID != "" {
		want = sel.OperationID
	}
	keys := make([]string, len(all))
	for i, e := range all {
		keys[i] = strings.ToUpper(e.method) + " " + e.path
		if sel.OperationID != "" {
			keys[i] = e.id
		}
	}
	var labels []string
	for _, i := range closest(want, keys, maxCandidates) {
		labels = append(labels, all[i].label())
	}
	return labels
}
