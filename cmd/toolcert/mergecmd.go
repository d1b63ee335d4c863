package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/toolcert/toolcert/reports"
)

const mergeSynopsis = `Usage: toolcert merge [--out DIR] [--format LIST] RESULTS.json...

Joins the results.json files of the shards of one run (toolcert run --shard
K/N, one per job of a CI matrix, same --seed, target and --level) into the
report of the whole run, written in every --format into --out, with the
summary on standard output; each scenario and case keeps its status at
every level. Shards that overlap, or results of different runs (seed,
target, version, level), are refused.

Exit codes: 0 the merged run passed; 1 it did not (a failure, a skip, an
unexpected pass); 2 usage error, unreadable or mismatched results, or a
shard was interrupted.`

func mergeCmd(_ context.Context, args []string, stdout, stderr io.Writer) error {
	var out, formats string
	fs := newFlags("merge", mergeSynopsis, stderr)
	fs.StringVar(&out, "out", "toolcert-report", "`DIR` for the merged reports")
	fs.StringVar(&formats, "format", strings.Join(reports.DefaultFormats, ","), "report formats, a comma-separated `LIST` or \"all\" (see toolcert help run)")
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageErr("merge: name the results.json files of the shards")
	}
	names, err := parseFormats(formats)
	if err != nil {
		return err
	}
	var shards []*reports.Result
	for _, file := range fs.Args() {
		r, err := reports.LoadResult(file)
		if err != nil {
			return usageErr("merge: %v", err)
		}
		shards = append(shards, r)
	}
	res, err := reports.Merge(shards...)
	if err != nil {
		return usageErr("%v", err)
	}
	paths, werr := reports.Write(out, res, names...)
	terr := reports.Text(stdout, res, reports.TextOptions{Files: paths})
	fmt.Fprintf(stdout, "merged %d shards\n", len(shards))
	var runErr error
	if res.Summary.Interrupted {
		runErr = errors.New("a shard was interrupted")
	}
	return runExit(res, runErr, errors.Join(werr, terr))
}
