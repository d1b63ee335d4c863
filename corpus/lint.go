package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"
)

// Problem is one thing wrong with a corpus, with the file and JSON pointer
// it is at.
type Problem struct {
	// File is the slash-separated path of the file, relative to the corpus
	// root ("." for the corpus as a whole).
	File string
	// Pointer is the JSON pointer inside File, "" for the whole file.
	Pointer string
	// Message says what is wrong, for a person.
	Message string
}

// String returns "file: pointer: message", or "file: message" when the
// problem is with the whole file.
func (p Problem) String() string {
	if p.Pointer == "" {
		return p.File + ": " + p.Message
	}
	return p.File + ": " + p.Pointer + ": " + p.Message
}

// Lint checks every tool of c and returns every problem it finds, in a
// deterministic order (tools sorted, then file by file), or nil when the
// corpus is clean. Each tool's tool.json, schemas and contract must load,
// compile and be closed; each accepted example must be accepted by
// [Corpus.Evaluate] at now within lim and project exactly to its expect;
// each reject must carry a canary and be rejected at exactly its gate and
// reason; ids must be unique and every body file used; every contract,
// the call-side tools' included, must take every id the protocol allows.
// Bodies are rendered with Vars{Now: now, Freshness and Skew from lim, a
// fixed canary "tclint"+NAME}.
func Lint(c *Corpus, now time.Time, lim Limits) []Problem {
	lim = lim.withDefaults()
	l := &linter{c: c, now: now, lim: lim, vars: Vars{
		Now: now, Freshness: lim.Freshness, Skew: lim.Skew,
		Canary: func(name, _ string) string { return "tclint" + name },
	}}
	tools, err := c.Tools()
	if err != nil {
		l.add(".", "", "%v", err)
		return l.problems
	}
	if len(tools) == 0 {
		l.add(".", "", "no tool folder (a folder holding a tool.json)")
	}
	for _, name := range tools {
		l.tool(name)
	}
	l.callSide(tools)
	l.sideRoutes()
	return l.problems
}

// sideRoutes checks every side route of SideRoutesFile, when the corpus
// has one.
func (l *linter) sideRoutes() {
	if _, err := fs.Stat(l.c.fsys, SideRoutesFile); errors.Is(err, fs.ErrNotExist) {
		return
	}
	var doc sideRoutes
	if err := l.c.decode(SideRoutesFile, &doc); err != nil {
		l.addErr(SideRoutesFile, err)
		return
	}
	for i, r := range doc.Routes {
		if err := r.Check(l.c); err != nil {
			l.add(SideRoutesFile, fmt.Sprintf("/routes/%d", i), "%v", err)
		}
	}
}

// linter collects the problems of one Lint call.
type linter struct {
	c        *Corpus
	now      time.Time
	lim      Limits
	vars     Vars
	problems []Problem
}

// add records a problem.
func (l *linter) add(file, ptr, format string, args ...any) {
	l.problems = append(l.problems, Problem{File: file, Pointer: ptr, Message: fmt.Sprintf(format, args...)})
}

// addErr records err as a problem with the whole of file, without the
// file name the corpus's own errors start with.
func (l *linter) addErr(file string, err error) {
	l.add(file, "", "%s", strings.TrimPrefix(err.Error(), file+": "))
}

// tool checks one tool folder: tool.json, its schemas and contract, then
// cases.json and the body files.
func (l *linter) tool(name string) {
	t, err := l.c.Tool(name)
	var ready *toolCheck
	if err != nil {
		l.addErr(path.Join(name, "tool.json"), err)
	} else {
		ready = l.toolFile(t)
		l.decisions(t)
	}
	cs, err := l.c.Cases(name)
	if err != nil {
		l.addErr(path.Join(name, "cases.json"), err)
		return
	}
	l.ids(name, cs)
	l.cases(name, ready, cs)
	l.unused(name, cs)
}
