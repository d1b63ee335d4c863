package main

import (
	"fmt"
	"strings"

	"github.com/toolcert/toolcert/reports"
)

// formatNames returns the report formats --format names, "all" expanded.
func (f *runFlags) formatNames() []string {
	var names []string
	for _, n := range strings.Split(f.formats, ",") {
		n = strings.TrimSpace(n)
		switch n {
		case "":
		case "all":
			names = append(names, reports.FormatNames()...)
		default:
			names = append(names, n)
		}
	}
	return names
}

// checkFormats refuses an empty list or an unknown format name.
func checkFormats(names []string) error {
	if len(names) == 0 {
		return usageErr("--format: name at least one format (known: %s)", strings.Join(reports.FormatNames(), ", "))
	}
	known := reports.Formats()
	for _, n := range names {
		if _, ok := known[n]; !ok {
			return usageErr("--format: unknown format %q (known: %s, or all)", n, strings.Join(reports.FormatNames(), ", "))
		}
	}
	return nil
}

// formatHelp lists the formats and their files for --help.
func formatHelp() string {
	var lines []string
	for _, n := range reports.FormatNames() {
		lines = append(lines, fmt.Sprintf("%s (%s)", n, reports.Formats()[n].File))
	}
	return strings.Join(lines, ", ")
}
