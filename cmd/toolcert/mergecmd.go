package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/toolcert/toolcert/reports"
)

const mergeSynopsis = `Usage: toolcert merge [--out DIR] [--format LIST] RESULTS.json...

Joins the results.json files of the shards of one run (toolcert run --shard
K/N, one per job of a CI matrix, same --seed and target) into the report of
the whole run, written in every --format into --out, with the summary on
standard output. Shards that overlap, or results of different runs (seed,
target, version), are refused.

Exit codes: 0 the merged run passed; 1 it did not (a failure, a skip, an
unexpected pass); 2 usage error, unreadable or mismatched results, or a
shard was interrupted.`

// maxResultBytes bounds one results.json that merge reads.
const maxResultBytes = 512 << 20

func mergeCmd(_ context.Context, args []string, stdout, stderr io.Writer) error {
	var out, formats string
	fs := newFlags("merge", mergeSynopsis, stderr)
	fs.StringVar(&out, "out", "toolcert-report", "`DIR` for the merged reports")
	fs.StringVar(&formats, "format", strings.Join(reports.DefaultFormats, ","), "report formats, a comma-separated `LIST` or \"all\" (see toolcert help run)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageErr("merge: %v", err)
	}
	if fs.NArg() == 0 {
		return usageErr("merge: name the results.json files of the shards")
	}
	names := (&runFlags{formats: formats}).formatNames()
	if err := checkFormats(names); err != nil {
		return err
	}
	shards, err := readResults(fs.Args())
	if err != nil {
		return usageErr("merge: %v", err)
	}
	res, err := reports.Merge(shards...)
	if err != nil {
		return usageErr("%v", err)
	}
	paths, werr := reports.Write(out, res, names...)
	summarize(stdout, res, paths, false)
	fmt.Fprintf(stdout, "merged %d shards\n", len(shards))
	var runErr error
	if res.Summary.Interrupted {
		runErr = fmt.Errorf("a shard was interrupted")
	}
	return runExit(res, runErr, werr)
}

// readResults reads each results.json file.
func readResults(files []string) ([]*reports.Result, error) {
	var out []*reports.Result
	for _, file := range files {
		r, err := readResult(file)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// readResult reads one results.json, refusing unknown fields.
func readResult(file string) (*reports.Result, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := json.NewDecoder(io.LimitReader(f, maxResultBytes))
	dec.DisallowUnknownFields()
	var r reports.Result
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return &r, nil
}
