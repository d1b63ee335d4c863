package scaffold

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/toolcert/toolcert/corpus"
)

// Options are the owner's choices for Write.
type Options struct {
	// Arguments are values of the tool's arguments for the examples that
	// come without, replacing those the source gives or the writer makes.
	Arguments map[string]string
	// Force replaces a tool folder that is there already.
	Force bool
	// Now is the time the folder is linted at; zero is time.Now.
	Now time.Time
	// Limits are the limits it is linted under; zero fields are the
	// defaults.
	Limits corpus.Limits
}

// Result is what Write wrote.
type Result struct {
	// Dir is the tool's folder.
	Dir string
	// Files are the files written, relative to Dir, sorted.
	Files []string
	// Decide are the decisions left to the owner, as written into
	// tool.json.
	Decide []corpus.Decision
	// Notes are what the source could not carry over and what the writer
	// left out, as written into NOTES.md.
	Notes []Note
	// Problems are what the corpus's lint finds in the folder written: a
	// bug of the writer or of the source, never the owner's to mend.
	Problems []corpus.Problem
}

// ErrExists is returned, wrapped, when the tool's folder is there and
// Options.Force is not set.
var ErrExists = errors.New("the tool's folder exists")

// toolName is what a tool's name is made of: it is a folder's name and a
// path segment of the protocol's invoke URL.
var toolName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// Write writes t's corpus folder under root (root/NAME), lints it alone,
// and returns what it wrote. The folder is written beside its place and
// renamed into it, so a failed write leaves nothing half done.
func Write(root string, t Tool, opts Options) (*Result, error) {
	if !toolName.MatchString(t.Name) {
		return nil, fmt.Errorf("tool name %q: want letters, digits, '_', '.' or '-', at most 64, starting with a letter or digit", t.Name)
	}
	dir := filepath.Join(root, t.Name)
	if _, err := os.Stat(dir); err == nil && !opts.Force {
		return nil, fmt.Errorf("%s: %w (--force replaces it)", dir, ErrExists)
	}
	files, decide, allNotes, err := build(t, opts)
	if err != nil {
		return nil, fmt.Errorf("tool %s: %w", t.Name, err)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("write %s: %w", dir, err)
	}
	stage, err := os.MkdirTemp(root, "."+t.Name+".import-")
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", dir, err)
	}
	defer os.RemoveAll(stage)
	if err := writeFiles(filepath.Join(stage, t.Name), files); err != nil {
		return nil, err
	}
	res := &Result{Dir: dir, Files: sortedNames(files), Decide: decide, Notes: allNotes}
	res.Problems = lint(stage, opts)
	if err := replace(filepath.Join(stage, t.Name), dir); err != nil {
		return nil, err
	}
	return res, nil
}

// writeFiles writes each file under dir.
func writeFiles(dir string, files map[string][]byte) error {
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("write %s: %w", p, err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", p, err)
		}
	}
	return nil
}

// replace moves the staged folder into place, the old one out of it.
func replace(staged, dir string) error {
	if _, err := os.Stat(dir); err == nil {
		old := staged + ".old"
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("replace %s: %w", dir, err)
		}
		defer os.RemoveAll(old)
	}
	if err := os.Rename(staged, dir); err != nil {
		return fmt.Errorf("write %s: %w", dir, err)
	}
	return nil
}

// lint lints the corpus of the one staged tool.
func lint(stage string, opts Options) []corpus.Problem {
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	return corpus.Lint(corpus.New(os.DirFS(stage)), now, opts.Limits)
}

// sortedNames returns the names of files, sorted.
func sortedNames(files map[string][]byte) []string {
	var out []string
	for name := range files {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// notes renders NOTES.md: where the tool came from, what the source could
// not carry over, and what is left to decide.
func notes(t Tool, decide []corpus.Decision) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s: notes of the import\n\n", t.Name)
	if t.Source != "" {
		fmt.Fprintf(&b, "Source: %s\n\n", t.Source)
	}
	fmt.Fprintf(&b, "Upstream request: `%s %s`\n\n", t.Method, t.Path)
	b.WriteString("## Not carried over\n\n")
	if len(t.Notes) == 0 {
		b.WriteString("Nothing: the source said everything the corpus holds.\n")
	}
	for _, n := range t.Notes {
		fmt.Fprintf(&b, "- `%s`: %s\n", n.Pointer, oneLine(n.Message))
	}
	b.WriteString("\n## Left to decide\n\n")
	b.WriteString("Each is also an entry of tool.json's \"decide\": make the decision, then delete the entry. `toolcert fixtures lint` lists those left; `toolcert run` refuses the corpus until none is (or `--allow-open-decisions`).\n\n")
	for _, d := range decide {
		at := d.File
		if d.Pointer != "" {
			at += " " + d.Pointer
		}
		fmt.Fprintf(&b, "- `%s`: %s\n", at, oneLine(d.Decide))
	}
	return b.Bytes()
}

// oneLine folds s onto one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
