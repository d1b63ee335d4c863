package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// caseBody reads the body file of the case at at and renders it; it
// returns the raw and the rendered bytes and whether there is a body to
// evaluate.
func (l *linter) caseBody(tool, at, body string) (raw, rendered []byte, ok bool) {
	file := path.Join(tool, "cases.json")
	at += "/body"
	switch {
	case body == "":
		l.add(file, at, "no body file")
		return nil, nil, false
	case !fs.ValidPath(body):
		l.add(file, at, "%q is not a path inside the tool's folder", body)
		return nil, nil, false
	}
	raw, err := l.c.Body(tool, body)
	if errors.Is(err, fs.ErrNotExist) {
		l.add(file, at, "%s does not exist", body)
		return nil, nil, false
	}
	if err != nil {
		l.add(file, at, "%v", err)
		return nil, nil, false
	}
	rendered, err = Render(raw, path.Join(tool, body), l.vars)
	if err != nil {
		l.add(file, at, "%v", err)
		return raw, nil, false
	}
	return raw, rendered, true
}

// errorBody returns the raw and the rendered body of reject r, which has
// a status and no body file: the tool's error answer for its status
// (Corpus.RejectBody).
func (l *linter) errorBody(tool string, tc *toolCheck, at string, r Reject) (raw, rendered []byte, ok bool) {
	file := path.Join(tool, "cases.json")
	if tc == nil || tc.tool == nil {
		return nil, nil, false
	}
	raw, _, err := l.c.RejectBody(tc.tool, r)
	if err != nil {
		l.add(file, at+"/body", "%v", err)
		return nil, nil, false
	}
	rendered, err = Render(raw, path.Join(tool, "tool.json")+" errors", l.vars)
	if err != nil {
		l.add(file, at+"/body", "%v", err)
		return raw, nil, false
	}
	return raw, rendered, true
}

// caseVersions checks the versions a case of tool lists and returns those
// the oracle can run (none when tool.json is broken: tc is nil).
func (l *linter) caseVersions(tool string, tc *toolCheck, at string, versions []string) []string {
	file := path.Join(tool, "cases.json")
	if len(versions) == 0 {
		l.add(file, at+"/versions", "no version listed")
	}
	if tc == nil {
		return nil
	}
	var out []string
	for j, v := range versions {
		if _, ok := tc.tool.Versions[v]; !ok {
			l.add(file, fmt.Sprintf("%s/versions/%d", at, j), "unknown version %q (tool.json has %v)", v, tc.tool.VersionNames())
			continue
		}
		if tc.usable[v] {
			out = append(out, v)
		}
	}
	return out
}

// caseArgs checks a case's arguments against the tool's argument schema.
func (l *linter) caseArgs(tc *toolCheck, at string, args map[string]string) {
	if tc == nil || tc.args == nil {
		return
	}
	m := make(map[string]any, len(args))
	for k, v := range args {
		m[k] = v
	}
	if err := tc.args.Validate(m); err != nil {
		l.add(path.Join(tc.tool.Name, "cases.json"), at+"/arguments", "do not satisfy the argument schema: %v", err)
	}
}

// unused reports every file under accepted/ and rejects/ that no case of
// cs names: dead fixtures rot.
func (l *linter) unused(tool string, cs *Cases) {
	used := map[string]bool{}
	for _, a := range cs.Accepted {
		used[path.Clean(a.Body)] = true
	}
	for _, r := range cs.Rejects {
		used[path.Clean(r.Body)] = true
	}
	for _, dir := range []string{"accepted", "rejects"} {
		root := path.Join(tool, dir)
		_ = fs.WalkDir(l.c.fsys, root, func(name string, d fs.DirEntry, err error) error {
			switch {
			case err != nil && name == root && errors.Is(err, fs.ErrNotExist):
			case err != nil:
				l.add(name, "", "%v", err)
			case !d.IsDir() && !used[strings.TrimPrefix(name, tool+"/")]:
				l.add(name, "", "not used by cases.json: add a case for it or delete it")
			}
			return nil
		})
	}
}
