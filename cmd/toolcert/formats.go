package main

import (
	"fmt"
	"strings"

	"github.com/toolcert/toolcert/reports"
)

// parseFormats reads --format (see reports.ParseFormats).
func parseFormats(list string) ([]string, error) {
	names, err := reports.ParseFormats(list)
	if err != nil {
		return nil, usageErr("--format: %v", err)
	}
	return names, nil
}

// formatHelp lists the formats and their files for --help.
func formatHelp() string {
	var lines []string
	for _, n := range reports.FormatNames() {
		lines = append(lines, fmt.Sprintf("%s (%s)", n, reports.Formats()[n].File))
	}
	return strings.Join(lines, ", ")
}
