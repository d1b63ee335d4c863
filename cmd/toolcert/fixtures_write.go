package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/toolcert/toolcert/internal/authoring/scaffold"
	"github.com/toolcert/toolcert/reports"
)

// writeTool writes the tool's corpus folder under out and tells what it
// wrote, what the source could not carry over and what is left to
// decide, every line of the source's text made printable. A lint problem of the folder written is exit 1: the import's
// fault, never the owner's, and the folder stays for a look.
func writeTool(stdout io.Writer, out string, t scaffold.Tool, opts scaffold.Options) error {
	res, err := scaffold.Write(out, t, opts)
	if err != nil {
		return configErr(err)
	}
	fmt.Fprintf(stdout, "wrote %s (%d files: %s)\n", res.Dir, len(res.Files), strings.Join(res.Files, ", "))
	if len(res.Notes) > 0 {
		fmt.Fprintf(stdout, "not carried over (%d, in NOTES.md):\n", len(res.Notes))
		for _, n := range res.Notes {
			fmt.Fprintf(stdout, "  %s: %s\n", reports.Printable(n.Pointer), reports.Printable(n.Message))
		}
	}
	fmt.Fprintf(stdout, "left to decide (%d, in tool.json \"decide\"; delete each entry once decided):\n", len(res.Decide))
	for _, d := range res.Decide {
		at := d.File
		if d.Pointer != "" {
			at += ": " + d.Pointer
		}
		fmt.Fprintf(stdout, "  %s: %s\n", reports.Printable(at), reports.Printable(d.Decide))
	}
	if len(res.Problems) > 0 {
		for _, p := range res.Problems {
			fmt.Fprintf(stdout, "lint: %s\n", reports.Printable(p.String()))
		}
		return &exitError{code: exitFail, err: fmt.Errorf("the folder written has %d lint problems", len(res.Problems))}
	}
	dir := filepath.Dir(res.Dir)
	fmt.Fprintf(stdout, "next: toolcert fixtures lint --fixtures %s\n      toolcert run --fixtures %s --features FEATURES [target flags] (refused until every decision is made, or --allow-open-decisions)\n", dir, dir)
	return nil
}
