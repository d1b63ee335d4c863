package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/reports"
)

// ControlsFile is the file, beside the tool folders, with the corpus's
// control catalogue: the controls a run gives evidence for, and which
// features, tags and operators evidence each (docs/controls.md).
const ControlsFile = "controls.json"

// Controls loads the corpus's control catalogue (ControlsFile), refusing
// unknown fields. A corpus without one returns an error that wraps
// fs.ErrNotExist: it has no controls.
func (c *Corpus) Controls() (*reports.Catalogue, error) {
	if _, err := fs.Stat(c.fsys, ControlsFile); err != nil {
		return nil, fmt.Errorf("load control catalogue: %w", err)
	}
	var cat reports.Catalogue
	if err := c.decode(ControlsFile, &cat); err != nil {
		return nil, fmt.Errorf("load control catalogue: %w", err)
	}
	return &cat, nil
}

// Vocabulary is what a control catalogue may map: the feature files (by
// base name, "duplicate_members.feature"), the scenario tags ("@calls")
// and the generator operators that exist.
type Vocabulary struct {
	Features  []string
	Tags      []string
	Operators []string
}

// LintControls checks the corpus's control catalogue, when it has one:
// every control has an ID of its own, a title, a source and an absolute
// http(s) URL when it has one; a CWE control's ID is "CWE-" and a number;
// what a control relates to is a CWE control of the catalogue; every
// mapping names a feature, tag or operator of v and controls of the
// catalogue; and every control is mapped from something. It returns the
// problems in file order, or nil.
func LintControls(c *Corpus, v Vocabulary) []Problem {
	cat, err := c.Controls()
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		msg := strings.TrimPrefix(err.Error(), "load control catalogue: "+ControlsFile+": ")
		return []Problem{{File: ControlsFile, Message: msg}}
	}
	l := &controlLinter{cat: cat, ids: map[string]int{}}
	l.controls()
	l.mapping("features", cat.Features, v.Features, "feature file")
	l.mapping("tags", cat.Tags, v.Tags, "scenario tag")
	l.mapping("operators", cat.Operators, v.Operators, "generator operator")
	l.unmapped()
	return l.problems
}

// controlLinter collects the problems of one LintControls call.
type controlLinter struct {
	cat      *reports.Catalogue
	ids      map[string]int
	problems []Problem
}

func (l *controlLinter) add(ptr, format string, args ...any) {
	l.problems = append(l.problems, Problem{File: ControlsFile, Pointer: ptr, Message: fmt.Sprintf(format, args...)})
}

// controls checks each control on its own, then what it relates to.
func (l *controlLinter) controls() {
	if len(l.cat.Controls) == 0 {
		l.add("/controls", "no control")
	}
	for i, ctl := range l.cat.Controls {
		at := fmt.Sprintf("/controls/%d", i)
		if j, dup := l.ids[ctl.ID]; dup {
			l.add(at+"/id", "%q is also the ID of /controls/%d", ctl.ID, j)
			continue
		}
		l.ids[ctl.ID] = i
		l.control(at, ctl)
	}
	for i, ctl := range l.cat.Controls {
		for j, id := range ctl.CWE {
			if k, ok := l.ids[id]; !ok || l.cat.Controls[k].CWENumber() == "" {
				l.add(fmt.Sprintf("/controls/%d/cwe/%d", i, j), "%q is not a CWE control of the catalogue", id)
			}
		}
	}
}

// control checks the fields of one control.
func (l *controlLinter) control(at string, ctl reports.Control) {
	for _, f := range []struct{ name, value string }{{"id", ctl.ID}, {"title", ctl.Title}, {"source", ctl.Source}} {
		if strings.TrimSpace(f.value) == "" || f.value != strings.TrimSpace(f.value) {
			l.add(at+"/"+f.name, "empty, or blank at an end")
		}
	}
	if ctl.URL != "" {
		if u, err := url.Parse(ctl.URL); err != nil || u.Host == "" || u.Scheme != "https" && u.Scheme != "http" {
			l.add(at+"/url", "%q is not an absolute http(s) URL", ctl.URL)
		}
	}
	if strings.HasPrefix(ctl.ID, "CWE-") != (ctl.Source == reports.SourceCWE) || ctl.Source == reports.SourceCWE && !isNumber(ctl.CWENumber()) {
		l.add(at, "a CWE control has the source %q and the ID CWE-<number>, and only a CWE control does", reports.SourceCWE)
	}
}

// mapping checks one map of the catalogue: each key is in known, each
// value a control of the catalogue.
func (l *controlLinter) mapping(name string, m map[string][]string, known []string, what string) {
	for _, k := range sortedKeys(m) {
		at := "/" + name + "/" + judge.EscapePointerToken(k)
		if !slices.Contains(known, k) {
			l.add(at, "no %s %q exists", what, k)
		}
		if len(m[k]) == 0 {
			l.add(at, "maps onto no control")
		}
		for i, id := range m[k] {
			if _, ok := l.ids[id]; !ok {
				l.add(fmt.Sprintf("%s/%d", at, i), "no control %q in /controls", id)
			}
		}
	}
}

// unmapped reports every control that nothing maps onto: it could never
// be anything but not exercised.
func (l *controlLinter) unmapped() {
	used := map[string]bool{}
	for _, m := range []map[string][]string{l.cat.Features, l.cat.Tags, l.cat.Operators} {
		for _, ids := range m {
			for _, id := range ids {
				used[id] = true
			}
		}
	}
	for i, ctl := range l.cat.Controls {
		if !used[ctl.ID] {
			l.add(fmt.Sprintf("/controls/%d", i), "no feature, tag or operator maps onto %q", ctl.ID)
		}
	}
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// isNumber reports whether s is a decimal number without sign or leading
// zero.
func isNumber(s string) bool {
	if s == "" || s[0] == '0' {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
