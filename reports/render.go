package reports

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
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
		"json":         {Name: "json", File: "results.json", Render: JSON},
		"junit":        {Name: "junit", File: "junit.xml", Render: JUnit},
		"cucumber":     {Name: "cucumber", File: "cucumber.json", Render: CucumberJSON},
		"cucumber-jvm": {Name: "cucumber-jvm", File: "cucumber-jvm.json", Render: CucumberJVM},
		"ctrf":         {Name: "ctrf", File: "ctrf.json", Render: CTRF},
		"sarif":        {Name: "sarif", File: "results.sarif", Render: SARIF},
		"markdown":     {Name: "markdown", File: "report.md", Render: Markdown},
		"html":         {Name: "html", File: "report.html", Render: HTML},
	}
}

// DefaultFormats are the formats a run writes when none are named.
var DefaultFormats = []string{"json", "junit"}

// Write renders r in each named format into dir, creating dir if needed. It
// returns the paths written. A file is written whole or not at all: each
// format renders into a temporary file that is renamed into place.
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
		if err := writeAtomic(path, func(w io.Writer) error { return f.Render(w, r) }); err != nil {
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

// ParseFormats reads a list of format names as the --format flag takes it:
// separated by commas, blanks ignored, "all" standing for every format. It
// refuses a list that names no format or a name [Formats] does not know.
func ParseFormats(list string) ([]string, error) {
	var names []string
	table := Formats()
	for _, n := range strings.Split(list, ",") {
		switch n = strings.TrimSpace(n); n {
		case "":
		case "all":
			names = append(names, FormatNames()...)
		default:
			if _, ok := table[n]; !ok {
				return nil, fmt.Errorf("unknown format %q (known: %s, or all)", n, strings.Join(FormatNames(), ", "))
			}
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, errors.New("name at least one format (known: " + strings.Join(FormatNames(), ", ") + ")")
	}
	return names, nil
}
