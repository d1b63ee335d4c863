package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"path"

	"github.com/toolcert/toolcert/internal/judge"
)

// Undecided returns the open decisions of every tool of c (tool.json's
// "decide"), one Problem each: File is the file the decision is about,
// relative to the corpus root, and Message what is to be decided. A tool
// whose tool.json does not load is left out: Lint names it.
func Undecided(c *Corpus) []Problem {
	tools, err := c.Tools()
	if err != nil {
		return nil
	}
	var out []Problem
	for _, name := range tools {
		t, err := c.Tool(name)
		if err != nil {
			continue
		}
		for _, d := range t.Decide {
			out = append(out, Problem{File: path.Join(name, d.File), Pointer: d.Pointer, Message: d.Decide})
		}
	}
	return out
}

// decisions checks that each open decision of t names a file of the
// tool's folder and, in a JSON file, a pointer that is there, and says
// what to decide: a stale entry would ask the owner about nothing.
func (l *linter) decisions(t *Tool) {
	file := path.Join(t.Name, "tool.json")
	for i, d := range t.Decide {
		at := fmt.Sprintf("/decide/%d", i)
		if d.Decide == "" {
			l.add(file, at+"/decide", "says nothing to decide")
		}
		if err := l.decisionTarget(t.Name, d); err != nil {
			l.add(file, at, "%v", err)
		}
	}
}

// decisionTarget checks the file and pointer a decision is about.
func (l *linter) decisionTarget(tool string, d Decision) error {
	if d.File == "" || !fs.ValidPath(d.File) {
		return fmt.Errorf("file %q is not a path inside the tool's folder", d.File)
	}
	raw, err := l.c.Fixture(path.Join(tool, d.File))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s does not exist", d.File)
	}
	if err != nil || d.Pointer == "" || path.Ext(d.File) != ".json" {
		return err
	}
	doc, err := judge.ParseJSON(raw, judge.Limits{MaxDepth: 256})
	if err != nil {
		return nil // the file's own checks name it
	}
	if _, ok := judge.Lookup(doc, d.Pointer); !ok {
		return fmt.Errorf("%s has nothing at %q", d.File, d.Pointer)
	}
	return nil
}
