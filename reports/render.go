package reports

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
)

// Renderer writes a Result in one format.
type Renderer func(w io.Writer, r *Result) error

// Format is one report format: the file it is written to and its renderer.
type Format struct {
	Name   string
	File   string
	Render Renderer
}

// Formats returns the report formats toolcert knows, by name. It is the one
// table that maps format names to renderers.
func Formats() map[string]Format {
	return map[string]Format{
		"json":     {Name: "json", File: "results.json", Render: JSON},
		"junit":    {Name: "junit", File: "junit.xml", Render: JUnit},
		"cucumber": {Name: "cucumber", File: "cucumber.json", Render: CucumberJSON},
		"ctrf":     {Name: "ctrf", File: "ctrf.json", Render: CTRF},
		"sarif":    {Name: "sarif", File: "results.sarif", Render: SARIF},
		"markdown": {Name: "markdown", File: "report.md", Render: Markdown},
		"html":     {Name: "html", File: "report.html", Render: HTML},
	}
}

// DefaultFormats are the formats a run writes when none are named.
var DefaultFormats = []string{"json", "junit"}

// Write renders r in each named format into dir, creating dir if needed. It
// returns the paths written. A file is written whole or not at all: each
// format renders into memory first and is then renamed into place.
func Write(dir string, r *Result, names ...string) ([]string, error) {
	if len(names) == 0 {
		names = DefaultFormats
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create report dir: %w", err)
	}
	table := Formats()
	var paths []string
	for _, name := range names {
		f, ok := table[name]
		if !ok {
			return paths, fmt.Errorf("unknown report format %q (known: %v)", name, FormatNames())
		}
		path := filepath.Join(dir, f.File)
		if err := writeFile(path, r, f.Render); err != nil {
			return paths, fmt.Errorf("write %s report: %w", name, err)
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// FormatNames returns the known format names, sorted.
func FormatNames() []string {
	var names []string
	for name := range Formats() {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func writeFile(path string, r *Result, render Renderer) error {
	var buf bytes.Buffer
	if err := render(&buf, r); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
